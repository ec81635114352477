% A processing loop that refreshes a form's display every frame: a 720 x 1280 moving
% pattern, each frame shown with disp.imshow. Frames run untimed for `warmup`
% milliseconds first (time for a page to connect and settle), then `frames` frames are
% timed; prints the timed loop's milliseconds. Run by benches/ui/run.sh headless
% (--ui none) and with the page's server running (--ui browser), with and without a
% page attached (run.sh may change the two numbers below).
import "Quasar.UI.dll"
warmup = 3000
frames = 200
[X, Y] = meshgrid(0..1279, 0..719)
frm = form("refresh benchmark")
gain = frm.add_slider("gain", 1, 0, 2)
disp = frm.add_display()
v = zeros(720, 1280)
k = 0
spent = 0
while spent < warmup
    tic()
    v = sin(X * 0.05 + k * 0.1) .* cos(Y * 0.03) * gain.value
    disp.imshow(v, [-1, 1])
    k = k + 1
    spent = spent + toc()
end
tic()
for j = 0..frames - 1
    v = sin(X * 0.05 + (k + j) * 0.1) .* cos(Y * 0.03) * gain.value
    disp.imshow(v, [-1, 1])
end
ms = toc()
print "loop ms ", ms
