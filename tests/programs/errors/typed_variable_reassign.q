% Assigning a non-integer to a variable declared int is an error at the value.
% ==
% error: typed_variable_reassign\.q:6:5: error: expected int, got the non-integer 2\.7
x : int = 5
print x
x = 2.7
