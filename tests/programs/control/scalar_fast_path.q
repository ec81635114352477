% Scalar expressions take the interpreter's scalar path (no fusion region); arrays,
% cells and mixed operands keep their own rules, with the same answers.
% ==
% stdout {
% 16.003906
% [2,3,4]
% 9
% 67
% 9
% -56
% -1
% 1.5
% -1
% 3
% 2.5
% 10
% -5
% 0
% 0
% 1
% 1
% 1024.5
% 4
% 5
% }
s = 0.
for i = 0..9
    s = 0.5*s + i
end
print s
c = cell(2)
c[0] = [1, 2, 3]
c[1] = 4
print c[0] + 1
print c[1] * 2 + 1
x = [10, 20, 30]
print x[1] * 2 + x[2] - sqrt(x[0] - 1)
A = zeros(2, 2)
A[1, 1] = 3
print A[1, 1] * A[1, 1] + A[0, 1]
k = int8(100)
k = k + k
print k
print mod(-7, 3)
print mod(7.5, 2)
print mod(int8(-7), int8(3))
print floor(-2.5) + ceil(2.5) * 2
j = 5
print j / 2
print j * 2
print -j
print !j
print 0 && 1
print 1 || 0
print 2 > 1 && 3 > 2
print 2^10 + 0.5
u = uint8(250)
print u + uint8(10)
print mod(u, 7)

