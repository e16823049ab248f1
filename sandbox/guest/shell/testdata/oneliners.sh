# One-liners coding agents typically run, checked against bash + GNU tools
# by TestAgentOneLiners on the tree agentFixture lays out. One command per
# line. A leading tag changes how a line is judged:
#   @sorted  the host prints in directory order, which depends on the file
#            system: both outputs are compared as sorted lines
#   @host    needs a program that runs on the host (git, python, node...):
#            not compared, counted apart
#   @status  only the exit status is compared (the output names the host)
#   @interp  depends on the interpreter fixes of the wasm build's overlay
#            (sandbox/guest/wasm/_overlay): compared only when the guest
#            side is the wasm guest (PTC_ONELINERS_PTC)
#
# --- looking around
ls
ls -a
ls -1 src
ls -la emptydir
ls src/components
ls -R lib
ls -d */
ls *.json
pwd
@sorted find . -type f
@sorted find . -name '*.ts'
@sorted find src -name '*.ts' -o -name '*.tsx'
@sorted find . -type d
@sorted find . -maxdepth 1 -type f
@sorted find . -type f -name '*.go' -not -name '*_test.go'
@sorted find . -empty
@sorted find . -type f -empty
@sorted find . -path ./node_modules -prune -o -name '*.js' -print
@sorted find . -name '*.md' -exec wc -l {} \;
@sorted find . -name '*.go' -exec grep -l func {} +
@sorted find src -type f | xargs wc -l
@sorted find . -iname 'readme*'
@sorted find . -type f -size +1k
@sorted find data -type f -newer data/users.csv
find . -name '*.py' | wc -l
@sorted find . -type f -name '*.ts' -print0 | xargs -0 grep -l import
du -sh data
@sorted du -a lib
tree_count=$(find . -type f | wc -l); echo "$tree_count files"
# --- grep
@sorted grep -rn TODO .
@sorted grep -rn TODO . --include='*.ts'
@sorted grep -rl import src
grep -c error data/app.log
grep -i ERROR data/app.log | head -3
grep -v '^#' config.ini
grep -n 'func ' lib/main.go
grep -E 'WARN|ERROR' data/app.log
grep -o '[0-9]\+\.[0-9]\+\.[0-9]\+' package.json
grep -w id data/users.csv
grep -A2 '\[server\]' config.ini
grep -B1 -n 'port' config.ini
grep -P '\d{4}-\d{2}-\d{2}' data/app.log | head -2
grep -oP '(?<=version": ")[^"]+' package.json
grep -q lodash package.json && echo has-lodash
grep -L TODO src/*.ts
grep -h import src/*.ts | sort | uniq -c | sort -rn
grep -rc TODO src | sort
grep -e alpha -e beta notes/old.txt
grep -x 'beta' notes/old.txt
grep -m1 INFO data/app.log
grep missing-pattern README.md; echo "status $?"
grep pattern nonexistent.txt; echo "status $?"
@sorted grep -rn --exclude-dir=node_modules require .
# --- sed
sed -n '1,3p' README.md
sed 's/foo/bar/g' notes/old.txt
sed -i 's/alpha/ALPHA/' notes/old.txt && cat notes/old.txt
sed -i.bak 's/beta/BETA/' notes/old.txt && cat notes/old.txt notes/old.txt.bak
sed -n '/\[server\]/,/^$/p' config.ini
sed '/^#/d' config.ini
sed -E 's/([a-z]+)=(.*)/\2=\1/' config.ini
sed -n '$p' README.md
sed '2q' README.md
sed 's/^/> /' notes/new.txt
sed -e 's/a/A/' -e 's/b/B/' notes/old.txt
sed '1d;$d' notes/new.txt
sed = notes/old.txt
sed 's/\s\+$//' README.md | wc -l
# --- awk
awk '{print $1}' data/scores.txt
awk -F, '{print $2}' data/users.csv
awk -F, 'NR>1 {sum += $3} END {print sum}' data/users.csv
awk '{s+=$2} END {print s/NR}' data/scores.txt
awk 'NR==2' README.md
awk 'length > 20' README.md
awk -F, '$3 > 30 {print $2, $4}' data/users.csv
awk '{print NR": "$0}' notes/old.txt
awk '/ERROR/ {c++} END {print c+0}' data/app.log
awk -F, 'NR>1 {n[$4]++} END {for (k in n) print k, n[k]}' data/users.csv | sort
awk '{printf "%-10s %5d\n", $1, $2}' data/scores.txt
awk 'BEGIN {OFS="\t"} {print $2, $1}' data/scores.txt
awk '{ $2 = $2 * 2; print }' data/scores.txt
awk -v limit=80 '$2 >= limit' data/scores.txt
awk 'END {print NR}' data/app.log
awk '{print toupper($1)}' data/scores.txt
awk -F: '{print $1}' data/app.log | sort -u
awk '{a[NR]=$0} END {for (i=NR; i>0; i--) print a[i]}' notes/old.txt
# --- sort, uniq, cut, tr, wc, head, tail
sort data/scores.txt
sort -k2 -n data/scores.txt
sort -k2,2nr -k1,1 data/scores.txt
sort -t, -k3 -n data/users.csv
sort -t, -k4,4 -k3,3n data/users.csv
sort -u data/words.txt
sort data/words.txt | uniq -c | sort -rn | head -3
sort -r data/words.txt | head -2
sort -V data/versions.txt
sort -h data/sizes.txt
cut -d, -f2,3 data/users.csv
cut -c1-10 README.md
cut -d: -f1 data/app.log | uniq
tr '[:lower:]' '[:upper:]' < notes/old.txt
tr -d '\r' < data/crlf.txt | wc -c
tr -s ' ' < data/spaces.txt
echo "a,b,c" | tr ',' '\n'
wc -l README.md
wc -l src/*.ts
wc data/users.csv data/scores.txt
wc -w notes/old.txt
wc -c < package.json
head -5 data/app.log
head -c 20 README.md
head -n -2 notes/old.txt
tail -3 data/app.log
tail -n +2 data/users.csv
tail -n 2 notes/old.txt notes/new.txt
cat -n notes/old.txt
cat -A data/crlf.txt
cat notes/old.txt notes/new.txt | sort | uniq -d
seq 5
seq -w 8 11
seq 0 5 20
seq -s, 1 5
# --- diff, cmp, comm, paste, join
diff notes/old.txt notes/new.txt; echo "status $?"
diff -u notes/old.txt notes/new.txt
diff -q notes/old.txt notes/new.txt
diff notes/old.txt notes/old.txt && echo same
diff -r notes notes2; echo "status $?"
diff <(sort notes/old.txt) <(sort notes/new.txt); echo "status $?"
cmp notes/old.txt notes/new.txt; echo "status $?"
cmp -s notes/old.txt notes/old.txt && echo same
comm -12 <(sort notes/old.txt) <(sort notes/new.txt)
comm -3 data/sorted1.txt data/sorted2.txt
comm data/sorted1.txt data/sorted2.txt
paste -d, data/sorted1.txt data/sorted2.txt
paste -sd+ data/nums.txt
join data/join1.txt data/join2.txt
join -t, data/ids.csv data/names.csv
# --- jq
jq . package.json
jq -r .name package.json
jq '.dependencies | keys' package.json
jq -r '.scripts | to_entries[] | "\(.key): \(.value)"' package.json
jq '.[] | select(.age > 30) | .name' data/records.json
jq -c '.[] | {name, city}' data/records.json
jq 'length' data/records.json
jq -r '.[].name' data/records.json
jq 'map(.age) | add' data/records.json
jq '.version = "2.0.0"' package.json
jq -e '.missing' package.json; echo "status $?"
jq --arg n demo '.name == $n' package.json
echo '{"a":1,"b":[1,2]}' | jq -c '.b |= map(. * 10)'
jq -s 'length' data/records.json data/records.json
jq -r '.[] | [.name, .age] | @tsv' data/records.json
jq -r '.[] | [.name, .city] | @csv' data/records.json
jq 'group_by(.city) | map({city: .[0].city, n: length})' data/records.json
jq -r 'to_entries[] | .key' package.json
jq -c '.[] | {city, name}' data/records.json
jq -c 'keys_unsorted' package.json
jq 'with_entries(select(.key != "private"))' package.json
# --- archives and checksums
tar czf /tmp/ptc-ol-a.tgz -C src . && tar tzf /tmp/ptc-ol-a.tgz | sort
tar cf out.tar notes && tar tf out.tar
tar czf out.tgz notes && mkdir x && tar xzf out.tgz -C x && ls -R x
tar -czf out.tgz data/users.csv && tar -tzvf out.tgz | wc -l
gzip -k notes/old.txt && gunzip -c notes/old.txt.gz
gzip notes/new.txt && ls notes && gunzip notes/new.txt.gz && cat notes/new.txt
gzip -c README.md | gunzip | head -2
zip -qr out.zip notes && unzip -l out.zip | tail -1
zip -q out.zip README.md && mkdir z && unzip -q out.zip -d z && cat z/README.md | head -1
unzip -o -q data/bundle.zip -d unz && cat unz/inner.txt
md5sum notes/old.txt
sha256sum notes/old.txt notes/new.txt
sha1sum README.md
sha256sum notes/old.txt > sums && sha256sum -c sums
md5sum < README.md
# --- files
mkdir -p a/b/c && touch a/b/c/f && find a | sort
mkdir -pv a/b
cp -rv notes n9 | sort
cp -v README.md r3 && mv -v r3 r4 && rm -v r4
rm -rv notes | sort
touch -d '2024-01-01 10:00' f && stat -c %y f
touch -t 202401011200 g && stat -c %y g
ln -sv README.md lnk
cp README.md /tmp/ptc-ol-r.md && wc -l < /tmp/ptc-ol-r.md
mv notes/old.txt notes/older.txt && ls notes
rm -rf emptydir && ls -d emptydir; echo "status $?"
rmdir emptydir && echo removed
rmdir src; echo "status $?"
ln -s README.md link.md && readlink link.md
realpath notes/../README.md
readlink -f src/./index.ts
chmod +x scripts/build.sh && ls -l scripts/build.sh | cut -c1-10
chmod 600 config.ini && stat -c '%a %n' config.ini
stat -c '%s' package.json
stat -c '%F' src
truncate -s 0 notes/old.txt && wc -c notes/old.txt
truncate -s 100 empty.txt && wc -c < empty.txt
t=$(mktemp) && echo hi > "$t" && cat "$t" && rm "$t"
d=$(mktemp -d) && test -d "$d" && echo dir-ok
file README.md
file package.json
file data/bundle.zip
file scripts/build.sh
basename src/components/Button.tsx .tsx
dirname src/components/Button.tsx
test -f package.json && echo exists
[ -d src ] && echo is-dir
# --- misc text
tac notes/old.txt
rev notes/old.txt
nl notes/old.txt
nl -ba README.md | head -3
fold -w 20 README.md | head -3
fold -s -w 30 README.md | head -3
column -t data/table.txt
column -t -s, data/users.csv
expr 3 + 4
expr length hello
expr 10 / 3 \* 2
od -c notes/old.txt | head -2
od -An -tx1 -N8 README.md
xxd notes/old.txt | head -2
xxd -p data/nums.txt
echo hello | xxd
printf 'a\tb\n' | od -c
uname
uname -s
timeout 5 echo fine
timeout 1 sleep 3; echo "status $?"
date -d '2024-01-15' +%Y-%m-%d
date -u -d '@0' +%Y-%m-%dT%H:%M:%S
date -d '2024-03-01 12:30:00' '+%A %H:%M'
echo $(( $(wc -l < data/users.csv) - 1 ))
cat data/users.csv | while IFS=, read -r id name age city; do echo "$name"; done
for f in notes/*.txt; do echo "$f: $(wc -l < "$f")"; done
ls src/*.ts | xargs -n1 basename
echo src/index.ts src/util.ts | xargs -n1 | sort -r
printf '%s\n' b a c | sort | xargs echo
grep -l TODO -r src | xargs -I{} sh -c 'echo {}'
# --- more everyday pipelines
ls -lt data | head -3 | awk '{print $NF}'
ls -S data | head -3
ls -r notes
ls -lh data/big.txt | awk '{print $5, $NF}'
ls -1 src | wc -l
du -sh src lib
head -1 data/users.csv | tr ',' '\n' | nl
cut -d, -f4 data/users.csv | tail -n +2 | sort | uniq -c | sort -rn
grep -E '^[A-Z]+:' data/app.log | cut -d: -f1 | sort | uniq -c
grep -c '' README.md
tail -n +5 data/app.log | head -3
tr -cd '[:alnum:]\n' < notes/new.txt
basename -s .ts src/index.ts src/util.ts
basename -a src/index.ts lib/main.go
sed -n '/\[db\]/,$p' config.ini
sed 's/#.*//' config.ini | grep -v '^$'
awk 'NF' README.md | wc -l
awk '{$1=""; print substr($0, 2)}' data/scores.txt
awk 'BEGIN{FS=","} NR>1 && $4=="paris" {print $2}' data/users.csv
awk -F'\t' '{print NF}' data/spaces.txt
awk '{n=split($0, a, ","); print n}' data/ids.csv
awk 'FNR==1{print FILENAME}' notes/old.txt notes/new.txt
jq -r 'keys[]' package.json
jq '.[0]' data/records.json
jq -r '.dependencies | to_entries | map("\(.key)@\(.value)") | join(" ")' package.json
jq '[.[] | .age] | max' data/records.json
jq -r '.[] | select(.city == "paris") | .name' data/records.json
grep -rl lodash . --include=package.json | xargs sed -i 's/lodash/underscore/' && grep -c underscore package.json
@sorted find . -name '*.ts' | xargs grep -l import
uniq -u data/nums.txt
comm -23 data/sorted1.txt data/sorted2.txt
sort -t: -k2 data/app.log | head -2
wc -l $(find lib -name '*.go' | sort)
stat -c '%s %n' notes/*.txt
mkdir -p build/out && cd build/out && pwd | sed 's#.*/w/##'
printf 'x\ny\n' > gen.txt && cat gen.txt
printf '%s=%s\n' a 1 b 2 | sort -r
tee -a notes/old.txt < notes/new.txt > /dev/null && wc -l notes/old.txt
echo "$(basename "$PWD")"
for f in src/*.ts; do echo "${f%.ts}.js"; done
@interp printf '%-8s|%5.1f\n' x 3.14159
seq 1 3 | paste -sd' '
head -c 100 data/big.txt | tail -c 10 | od -c | head -1
sed -n '2{p;q}' notes/old.txt
grep -n . notes/old.txt | tail -1
sort data/words.txt | uniq | wc -l
cut -c1-3 data/words.txt | sort -u | tr '\n' ' '
tree
tree -L 1 src
tree -I node_modules -L 2 .
tree -d
hexdump -C notes/old.txt
less notes/old.txt
env FOO=bar sh -c 'echo "$FOO"'
env -u HOME printenv HOME; echo "status $?"
env | grep -c '^PATH='
echo "scale=2; $(wc -l < data/app.log) / 7" | bc
echo '4*a(1)' | bc -l
awk -F, 'NR>1 {print $3}' data/users.csv | paste -sd+ | bc
@host git status
@host python3 -c 'print(1)'
@host node -e 'console.log(1)'
@host make -n
@status whoami
