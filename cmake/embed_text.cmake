# Writes a C++ file defining `const char* const simt::embedded::<NAME>` with the text of INPUT.
# Run as: cmake -DINPUT=... -DOUTPUT=... -DNAME=... -P embed_text.cmake
file(READ "${INPUT}" content)
set(delim "simt_embed")
file(WRITE "${OUTPUT}" "// Generated from ${INPUT}; do not edit.\nnamespace simt { namespace embedded {\nextern const char* const ${NAME};\nconst char* const ${NAME} = R\"${delim}(${content})${delim}\";\n} }\n")
