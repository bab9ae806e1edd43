mkdir -p src/d && echo x > src/d/x && tar -czf a.tar.gz --owner=7 --group=8 src && rm -r src
