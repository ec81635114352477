% An array of more than 1000 elements prints summarised, as NumPy and MATLAB do: the
% first and last 3 items of every dimension, then its shape and type; `printfull`
% prints every element, and so does `num2str`.
% ==
% stdout {
% [0,1,2,...,1197,1198,1199] (1x1200 vec[int], summarised: printfull(x) prints every element)
% [ [0,1,2,...,97,98,99],
%   [100,101,102,...,197,198,199],
%   [200,201,202,...,297,298,299],
%   ...,
%   [9700,9701,9702,...,9797,9798,9799],
%   [9800,9801,9802,...,9897,9898,9899],
%   [9900,9901,9902,...,9997,9998,9999] ] (100x100 mat[int], summarised: printfull(x) prints every element)
% [ [ [0,0],
%     [0,0],
%     [0,0],
%     ...,
%     [0,0],
%     [0,0],
%     [0,0] ],
%   [ [0,0],
%     [0,0],
%     [0,0],
%     ...,
%     [0,0],
%     [0,0],
%     [0,0] ] ] (2x300x2 cube, summarised: printfull(x) prints every element)
% 1200 elements: [0,1,2,3,4,5,6,7,8,9,10,11,12]
% 2001 2003
% }
x = 0..1199
print x
print reshape(0..9999, [100, 100])
print zeros(2, 300, 2)
printfull(numel(x), " elements: ", x[0..12])
print numel(num2str(zeros(1000))), " ", numel(num2str(zeros(1001)))
