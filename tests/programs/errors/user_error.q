% error("...") stops the program with the message at the call.
% ==
% error: user_error\.q:7:5: error: value must be positive
x = -1
print "before"
if x < 0
    error("value must be positive")
end
print "after"
