% A function main() runs after all top-level statements.
% ==
% stdout {
% top 1
% top 2
% in main 42
% }
function [] = main()
    print "in main ", answer()
end
print "top 1"
function y = answer()
    y = 42
end
print "top 2"
