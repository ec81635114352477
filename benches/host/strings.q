% Host interpreter: string building, one number appended per iteration.
% iterations: 20000
s = ""
for i = 1..20000
    s = strcat(s, sprintf("%d,", i))
end
print numel(s)
