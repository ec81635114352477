% A form under `--ui none`: the controls keep their initial values, each `onchange`
% callback runs once right after it is added (as if the page had set every control to
% its initial value), a button's `onclick` never runs, `hold("on")` is 0 so a display
% loop runs once, `frm.wait()` returns at once, and each display panel drawn into is a
% figure written when the run ends. Pixels above 0.5: 0.6, 0.7, 0.9, 1.0 (4 of 8).
% ==
% options { --ui none }
% stdout {
% threshold 0.5, invert 0: 4 white
% threshold 0.5, invert 0: 4 white
% curve 3
% frame 1
% 0.5 0 Recompute
% slider 0..1, label threshold
% [2,4,3]
% 255 0
% done
% figure 1: wrote form_headless_figure1.png
% figure 2: wrote form_headless_figure2.png, form_headless_figure2.svg
% }
import "Quasar.UI.dll"

img = [[0.1, 0.4, 0.6, 0.9], [0.2, 0.5, 0.7, 1.0]]
frm = form("Threshold")
frm.width = 600
frm.center()
frm.add_heading("Parameters")
t = frm.add_slider("threshold", 0.5, 0, 1)
inv = frm.add_checkbox("invert", false)
go = frm.add_button("Recompute")
disp = frm.add_display()
disp.subplot(1, 2, 0)

function [] = update()
    mask = img > t.value
    if inv.value
        mask = !mask
    endif
    disp.subplot(1, 2, 0)
    disp.imshow(mask * 255)
    print "threshold ", t.value, ", invert ", inv.value, ": ", sum(mask), " white"
end

function [] = clicked()
    print "clicked"
end

function [] = curve()
    disp.subplot(1, 2, 1)
    disp.plot([0, 1, 4, 9])
    print "curve 3"
end

t.onchange.add(update)
inv.onchange.add(update)
go.onclick.add(clicked)
t.onchange.add(curve)
frames = 0
repeat
    frames += 1
    pause(0)
until !hold("on")
print "frame ", frames
print t.value, " ", inv.value, " ", go.label
print "slider ", t.minimum, "..", t.maximum, ", label ", t.label
disp.subplot(1, 2, 0)
px = disp.rasterize()
print size(px)
print px[0, 3, 0], " ", px[0, 0, 0]
frm.wait()
print "done"
