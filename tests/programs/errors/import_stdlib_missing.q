% A standard-library module that Blazar does not bundle yet is an error naming it.
% ==
% error: import_stdlib_missing\.q:4:1: error: cannot import "optim\.q": there is no file optim\.q next to the program, and Blazar's bundled library has no module "optim\.q" yet
import "optim.q"
print 1
