% The ?? type accepts any value as a parameter and in declarations.
% ==
% stdout {
% scalar
% string
% vec
% 5
% }
function t = kind(x : ??)
    t = type(x)
end
print kind(2.5)
print kind("s")
print kind(zeros(2))
y : ?? = 5
print y
