% Complex arrays in fused kernels: `complex(re, im)`, `+ - .* ./` with complex, real
% and int operands (computed in complex f64 and rounded, as the host does), `real`,
% `imag`, `abs`, `angle`, `conj`, negation, broadcasting, a reduction of a real result,
% and division by a complex zero. Results equal the host's exactly.
% ==
% options { --fuse-min 0 }
% stdout {
% [1.5+0.5i,-2+4i,3.25-1i,0+2i]
% [4+2.5i,-17-8i,15.0625-8.5i,-5+4i]
% [4,-17,15.0625,-5][2.5,-8,-8.5,4]
% [1.5811388,4.472136,3.4003677,2][0.32175055,2.0344439,-0.29849893,1.5707964]
% [0.53846157-0.30769232i,-0.8235294+0.7058824i,0.6721311+0.39344263i,-0.8-0.4i]
% [2.5,20,11.5625,4]
% 15
% [0-0.5i,0-4i,0+1i,0-2i]
% [0.5+0.5i,-4+4i,0.25-1i,-4+2i][1+2i,2+4i,3+6i,4+8i]
% [ [10+0i,200+100i],
%   [30+10i,400+0i] ]
% [NaN+NaNi,NaN+NaNi,NaN+NaNi,NaN+NaNi]
% }
x = [1.5, -2, 3.25, 0]
y = [0.5, 4, -1, 2]
z = complex(x, y)
print z
w = z .* z + z * 2 - 1
print w
print real(w), imag(w)
print abs(z), angle(z)
print conj(z) ./ (z + 1)
print real(z .* conj(z))
print sum(abs(z - conj(z)))
print -z + x
k = int([1, 2, 3, 4])
print z - k, complex(k, 2 * k)
M = complex([[1, 2], [3, 4]], [[0, 1], [1, 0]])
print M .* [10, 100]
print z ./ complex(0, 0) 
