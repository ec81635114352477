% A trailing `concealed` on a function definition is accepted.
% ==
% stdout {
% 42
% }
function y = secret(x) concealed
    y = x * 6
end
print secret(7)
