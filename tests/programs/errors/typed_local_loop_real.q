% A real stored in a local declared int is an error when it is not integral, also in
% a loop long enough to run as a kernel: the kernel cannot test it where it assigns,
% so the loop stays on the host, which reports it (issue 32, item 2).
% ==
% error: typed_local_loop_real\.q:8:15: error: expected int, got the non-integer 0\.5
y = zeros(5000)
for p = 0..4999
    t : int = p / 2
    y[p] = t
end
print y[4]
