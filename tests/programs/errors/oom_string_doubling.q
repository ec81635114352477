% A string doubled in a loop stops at the bound on string length (256 MiB) with a
% located "out of memory" error, instead of growing until the process is killed.
% ==
% error: oom_string_doubling\.q:8:9: error: strcat: out of memory: a string of 512 MiB is longer than the 256 MiB strings may hold
s = "abcdefgh"
n = 0
while true
    s = strcat(s, s)
    n = n + 1
end
