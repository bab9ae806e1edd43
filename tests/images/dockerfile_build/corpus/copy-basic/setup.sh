printf '#!/bin/sh\necho exe\n' > exe && chmod 755 exe
