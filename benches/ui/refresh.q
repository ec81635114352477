% A processing loop that refreshes a form's display every frame: 200 frames of a
% 720 x 1280 moving pattern, each shown with disp.imshow. Prints the loop's time.
% Run by benches/ui/run.sh headless (--ui none) and with the page's server running
% (--ui browser), with and without a page attached.
import "Quasar.UI.dll"
[X, Y] = meshgrid(0..1279, 0..719)
frm = form("refresh benchmark")
gain = frm.add_slider("gain", 1, 0, 2)
disp = frm.add_display()
frames = 200
v = zeros(720, 1280)
tic()
for k = 0..frames - 1
    v = sin(X * 0.05 + k * 0.1) .* cos(Y * 0.03) * gain.value
    disp.imshow(v, [-1, 1])
end
ms = toc()
print "loop ms ", ms
