% `break` outside of a loop is an error at the break.
% ==
% error: break_outside_loop\.q:5:5: error: .*break.*loop
if true
    break
end
