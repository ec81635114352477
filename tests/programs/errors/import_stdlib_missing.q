% A standard-library module that Blazar does not bundle yet is an error naming it.
% ==
% error: import_stdlib_missing\.q:4:1: error: cannot import "linalg\.q": there is no file linalg\.q next to the program, and Blazar's bundled library has no module "linalg\.q" yet
import "linalg.q"
print 1
