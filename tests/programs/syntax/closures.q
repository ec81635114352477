% Lambdas capture variables by value at creation time.
% ==
% stdout {
% 13
% 13
% 20
% [11,12]
% }
c = 10
add_c = x -> x + c
print add_c(3)
c = 100
print add_c(3)
function f = make_scaler(s)
    f = x -> x * s
end
times4 = make_scaler(4)
print times4(5)
adders = `(x -> x + 1), (x -> x + 2)'
print [adders[0](10), adders[1](10)]
