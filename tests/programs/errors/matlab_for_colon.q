% MATLAB's range `1:3` in a `for` gets the Quasar spelling, `a..b`, and the 0-based rule.
% ==
% error: matlab_for_colon\.q:4:10: error: expected end of statement, found `:` \(a range is written `a\.\.b` in Quasar, not MATLAB's `a:b`; indices start at 0, so a loop over n elements is `for i = 0\.\.n-1`\)
for i = 1:3
    print i
end
