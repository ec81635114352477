% Breaking out of a loop marked parallel is rejected: its iterations have no order.
total = 0
!parallel for
for i = 0..9
    total += i
    if i == 5
        break
    end
end
print total
% ==
% error: break_parallel_loop\.q:7:9: error: cannot break out of a parallel loop
