% connect takes two figure handles (or figure numbers); a figure that does not exist is
% a located error.
% ==
% error: figure_connect_not_figure\.q:6:1: error: connect: there is no figure 7
h = imshow(zeros(2, 2))
h.connect(7)
