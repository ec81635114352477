% A failed assert is an error at the assert.
% ==
% error: assert_failed\.q:6:8: error: assertion failed
x = 3
assert(x == 3)
assert(x > 5)
