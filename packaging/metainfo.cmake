# SPDX-License-Identifier: GPL-3.0-or-later
# The AppStream metainfo from org.cplab.cplab.metainfo.xml: the release is PROJECT_VERSION and,
# when DOCS_URL (an http(s) address under which README.md and docs/ are published) is given, the
# home page and four screenshots from docs/ are listed. Included by packaging/CMakeLists.txt;
# tests/packaging/check_install.sh also runs it as a script:
#   cmake -DOUTPUT=FILE -DDOCS_URL=URL -DPROJECT_VERSION=V -P metainfo.cmake

function(cplab_metainfo output docs_url)
  set(CPLAB_METAINFO_WEB "")
  if(docs_url)
    if(NOT docs_url MATCHES "^https?://[^ <>&\"]+$")
      message(FATAL_ERROR "CPLAB_DOCS_URL must be an http(s) address, not '${docs_url}'")
    endif()
    string(REGEX REPLACE "/+$" "" docs_url "${docs_url}")
    string(APPEND CPLAB_METAINFO_WEB "  <url type=\"homepage\">${docs_url}</url>\n  <screenshots>\n")
    foreach(shot "screenshot|The built-in Kelley demo after five steps"
                 "presentation_bundle|Presentation mode at 1280x720: the bundle method raced against Kelley"
                 "ocr_race|Five structural SVM solvers raced on OCR words"
                 "map_stereo|Tsukuba stereo by TRW-S: the disparity labeling after 30 sweeps")
      string(REPLACE "|" ";" shot "${shot}")
      list(GET shot 0 file)
      list(GET shot 1 caption)
      set(kind "")
      if(file STREQUAL "screenshot")
        set(kind " type=\"default\"")
      endif()
      string(APPEND CPLAB_METAINFO_WEB "    <screenshot${kind}>\n      <caption>${caption}</caption>\n"
                    "      <image>${docs_url}/docs/${file}.png</image>\n    </screenshot>\n")
    endforeach()
    string(APPEND CPLAB_METAINFO_WEB "  </screenshots>\n")
  endif()
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/org.cplab.cplab.metainfo.xml ${output} @ONLY)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
  cplab_metainfo("${OUTPUT}" "${DOCS_URL}")
endif()
