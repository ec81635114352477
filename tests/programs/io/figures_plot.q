% Line plots: plot(x, y) and plot(y) (x = 0, 1, ...), hold("on") adds to the current
% plot, legend / xlabel / ylabel / title label it, figure() starts another; each plot is
% written as a 640x480 PNG and an SVG when the run ends. hold returns 0 (no window is
% open), so a display loop `repeat ... until !hold("on")` runs once; pause returns at once.
% h.rasterize() draws the plot: white background, the first series in MATLAB's first
% line colour (0, 114, 189) somewhere on it, the "r" series in pure red.
% ==
% stdout {
% 1 1 2
% [480,640,3] 255
% 1 1
% frames: 1
% figure 1: wrote figures_plot_figure1_Two_curves.png, figures_plot_figure1_Two_curves.svg
% figure 2: wrote figures_plot_figure2.png, figures_plot_figure2.svg
% }
t = linspace(0, 1, 40)
h = plot(t, t .^ 2)
held = hold("on")
h1 = plot(t, 1 - t, "r")
legend("t^2", "1 - t")
xlabel("t")
ylabel("value")
title("Two curves")
hold("off")
f = figure()
plot([3, 1, 4, 1, 5, 9, 2, 6])
print h.number, " ", h1.number, " ", f.number
r = h.rasterize()
print size(r), " ", max(r)
blue = (r[:, :, 0] == 0) .* (r[:, :, 1] == 114) .* (r[:, :, 2] == 189)
red = (r[:, :, 0] == 255) .* (r[:, :, 1] == 0) .* (r[:, :, 2] == 0)
print sum(blue) > 100, " ", sum(red) > 100
frames = 0
repeat
    frames += 1
    pause(30)
until !hold("on")
print "frames: ", frames
