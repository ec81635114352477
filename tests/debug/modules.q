% The debugger across files: host functions and a kernel of a user module
% (modules_lib.q), and a function of Blazar's bundled inttypes.q.
import "modules_lib.q"
import "inttypes.q"

x = [1.5, 2.5, 300]
y = scaled(x, 2)
print y
print float_to_uint8(x)
