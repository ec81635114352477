% In host code 'unchecked reads are checked: a read outside is an error.
% ==
% error: read_unchecked_host\.q:6:7: error: index -1 is out of bounds
y : vec'unchecked = [1, 2, 3]
print y[2]
print y[-1]
