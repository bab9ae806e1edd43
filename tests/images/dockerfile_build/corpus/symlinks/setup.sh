ln -s target.txt link && ln -s dir dirlink && ln -s /etc/passwd abs && ln -s missing dangling
