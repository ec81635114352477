% exist (MATLAB's meanings as far as they apply): 1 a variable holding a value, 2 a
% function of the program or a file, 5 a builtin or language function, 7 a folder, 0
% none; exist(name, kind) asks one question. A variable in scope that has no value yet
% is 0, as in MATLAB before the assignment.
% ==
% stdout {
% 1 2 5 5 0
% 0 1
% 1 0 0 5 0
% 2 7 7 0
% 1 0
% }
function y = twice(a)
    y = 2 * a
end
function r = probe()
    r = exist("local") * 10
    local = 1
    r += exist("local")
end
x = 3
print exist("x"), " ", exist("twice"), " ", exist("sin"), " ", exist("parallel_do"), " ", _
    exist("no_such_name")
if false
    late = 1
end
print exist("late"), " ", probe()
print exist("x", "var"), " ", exist("x", "builtin"), " ", exist("sin", "var"), " ", _
    exist("sin", "builtin"), " ", exist("twice", "builtin")
print exist("exist.q"), " ", exist("../builtins"), " ", exist("../builtins", "file"), " ", _
    exist("exist.q", "dir")
name = "x"
print exist(strcat("s", "in")) / 5, " ", exist(name)
