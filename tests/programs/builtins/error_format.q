% error(fmt, args...) formats its message as sprintf does (MATLAB's error).
% ==
% error: error_format\.q:5:1: error: boom 3 of 4\.5
x = 3
error("boom %d of %g", x, 4.5)
