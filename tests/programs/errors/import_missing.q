% Importing a file that does not exist is an error at the import.
% ==
% error: import_missing\.q:4:1: error: cannot import "no_such_file_here\.q"
import "no_such_file_here.q"
print 1
