% Fixed-length vector types vecN / ivecN in declarations and parameters hold their values.
% ==
% stdout {
% 6
% [2,4,6]
% 7
% 1
% }
p : vec3 = [1, 2, 3]
print sum(p)
function y : vec3 = twice3(v : vec3)
    y = 2 * v
end
print twice3(p)
q : ivec2 = [3, 4]
print q[0] + q[1]
print type(q, "vec[??]")
