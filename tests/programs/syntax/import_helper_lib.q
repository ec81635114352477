% A helper library imported by import_helper.q (no test block of its own).
function y = helper_double(x)
    y = 2 * x
end
function [] = helper_greet()
    print "hello from helper"
end
