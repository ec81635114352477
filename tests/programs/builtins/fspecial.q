% fspecial: MATLAB's predefined kernels, printed to 6 decimals.
% Reference (NumPy/SciPy): gaussian: h = exp(-(x²+y²)/(2σ²)) on the centred grid, values
% below eps*max(h) set to 0, divided by h.sum(); laplacian: 4/(α+1)*[[α/4,(1-α)/4,α/4],
% [(1-α)/4,-1,(1-α)/4],[α/4,(1-α)/4,α/4]]; disk: the area of each unit pixel inside the
% circle of radius r (scipy.integrate.quad of the clipped chord height), divided by the
% sum (fspecial("disk", 2) matches MATLAB's printed table).
% ==
% options { --double }
% stdout {
% [ [0.011344,0.08382,0.011344],
%   [0.08382,0.619347,0.08382],
%   [0.011344,0.08382,0.011344] ]
% [ [0.025073,0.071057,0.100554,0.071057,0.025073],
%   [0.035482,0.100554,0.142298,0.100554,0.035482],
%   [0.025073,0.071057,0.100554,0.071057,0.025073] ]
% [ [0.166667,0.666667,0.166667],
%   [0.666667,-3.333333,0.666667],
%   [0.166667,0.666667,0.166667] ]
% [ [0.077159,0.137473,0.077159],
%   [0.137473,0.141471,0.137473],
%   [0.077159,0.137473,0.077159] ]
% [ [0,0.017016,0.038115,0.017016,0],
%   [0.017016,0.078381,0.079577,0.078381,0.017016],
%   [0.038115,0.079577,0.079577,0.079577,0.038115],
%   [0.017016,0.078381,0.079577,0.078381,0.017016],
%   [0,0.017016,0.038115,0.017016,0] ]
% [ [0.25,0.25],
%   [0.25,0.25] ] [2,3] 1
% [ [1,2,1],
%   [0,0,0],
%   [-1,-2,-1] ]
% [11,11] 1
% }
function y = r6(x)
    y = round(x * 1e6) / 1e6
endfunction
print r6(fspecial("gaussian"))
print r6(fspecial("gaussian", [3, 5], 1.2))
print r6(fspecial("laplacian"))
print r6(fspecial("disk", 1.5))
print r6(fspecial("disk", 2))
print fspecial("average", 2), " ", size(fspecial("average", [2, 3])), " ", abs(sum(fspecial("average", [2, 3])) - 1) < 1e-12
print fspecial("sobel")
print size(fspecial("disk")), " ", abs(sum(fspecial("disk")) - 1) < 1e-12
