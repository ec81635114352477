% Host interpreter speed: 10 million scalar iterations of `s += i*0.5`.
s = 0.
for i = 0..9999999
    s += i*0.5
end
print s
