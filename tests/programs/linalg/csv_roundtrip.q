% csvwrite then csvread: a matrix and a vector come back with the same values, and
% csvread(path, r, c) skips r rows and c columns (as MATLAB's csvread). Empty fields and
% short rows are covered by the runtime's unit tests. Reference: the values written.
% ==
% stdout {
% [ [1.5,-2,3],
%   [4,5e-5,6] ]
% 0
% [1,2,3,4]
% [ [1,0,3],
%   [4,5,0] ]
% [5,0]
% [2,2]
% }
A = [[1.5, -2, 3], [4, 0.00005, 6]]
csvwrite("csv_roundtrip_a.csv", A)
B = csvread("csv_roundtrip_a.csv")
print B
print max(abs(B - A))
csvwrite("csv_roundtrip_v.csv", [1, 2, 3, 4])
print csvread("csv_roundtrip_v.csv")
csvwrite("csv_roundtrip_p.csv", [[1, 0, 3], [4, 5, 0]])
print csvread("csv_roundtrip_p.csv")
print csvread("csv_roundtrip_p.csv", 1, 1)
print size(csvread("csv_roundtrip_a.csv", 0, 1))
