% plot needs as many x as y values; the error points at the call.
% ==
% error: plot_lengths\.q:4:1: error: plot: x and y need as many values, got 3 and 2
plot([1, 2, 3], [4, 5])
