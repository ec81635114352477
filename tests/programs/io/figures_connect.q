% h.connect(h2) (and connect(h, h2)) links two figures' zoom and pan. Without a window
% the link shows in the run's list of figures: each figure names those linked with it
% (once per pair however often connected; a figure is not linked with itself). It
% returns 0; an argument that is not a figure is a located error (errors/).
% ==
% stdout {
% 0 0 0
% figure 1: wrote figures_connect_figure1_left.png (linked with figure 2, 3)
% figure 2: wrote figures_connect_figure2.png (linked with figure 1)
% figure 3: wrote figures_connect_figure3.png, figures_connect_figure3.svg (linked with figure 1)
% figure 4: wrote figures_connect_figure4.png
% }
a = imshow([[0, 255], [255, 0]])
title("left")
b = imshow([[255, 0], [0, 255]])
p = plot([1, 2, 3])
c = imshow(zeros(2, 2))
print a.connect(b), " ", connect(b, a), " ", a.connect(a)
p.connect(a)
