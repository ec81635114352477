% MATLAB's command syntax `hold on`: the error gives the call, `hold("on")`.
% ==
% error: matlab_hold_on\.q:5:6: error: expected end of statement, found `on` \(MATLAB's command syntax; in Quasar call the function: `hold\("on"\)`\)
plot([1, 2, 3])
hold on
plot([3, 2, 1])
