% printf with fewer arguments than conversions is an error at the call.
% ==
% error: printf_missing_args\.q:5:1: error: printf: not enough arguments for format
print "start"
printf("%d and %d\n", 1)
