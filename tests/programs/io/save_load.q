% save then load returns equal values for arrays, scalars, strings, complex and cells.
% ==
% stdout {
% [ [1.5,2],
%   [3,4] ]
% 42
% hello
% 1-2i
% [1,2]
% text
% [2,2,2]
% 1
% }
save("save_load_m.qd", [[1.5, 2], [3, 4]])
print load("save_load_m.qd")
save("save_load_s.qd", 42)
print load("save_load_s.qd")
save("save_load_t.qd", "hello")
print load("save_load_t.qd")
save("save_load_c.qd", 1 - 2i)
print load("save_load_c.qd")
save("save_load_cell.qd", `[1, 2], "text"')
c = load("save_load_cell.qd")
print c[0]
print c[1]
R = rand(2, 2, 2)
save("save_load_r.qd", R)
R2 = load("save_load_r.qd")
print size(R2)
print sum(R2 == R) == 8
