% Default parameter values, used when trailing arguments are left out.
% ==
% stdout {
% 6
% 15
% 105
% hi there
% hi you
% }
function y = f(a, b = 2, c = 3)
    y = a * b * c
end
print f(1)
print f(1, 5)
print f(1, 5, 21)
function [] = greet(name : string = "there")
    print "hi ", name
end
greet()
greet("you")
