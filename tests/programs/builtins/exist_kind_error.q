% exist's kind is "var", "file", "dir" or "builtin".
% ==
% error: exist_kind_error\.q:5:7: error: exist: unknown kind "class" \(use "var", "file", "dir" or "builtin"\)
x = 1
print exist("y", "class")
