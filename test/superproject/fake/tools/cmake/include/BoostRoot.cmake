# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# A stand-in for a Boost superproject's tools/cmake/include/BoostRoot.cmake (boostorg/cmake),
# reduced to how it takes libraries in:
# - every libs/<name> that has a CMakeLists.txt is added with add_subdirectory, in the order
#   of the names, so a library links targets that may be defined after it;
# - with BOOST_INCLUDE_LIBRARIES, only those libraries and the ones they depend on are added;
#   a library's dependencies are read from its CMakeLists.txt, every Boost::<name> outside a
#   comment (Boost::headers and the library itself aside), as BoostRoot reads them;
# - BoostRoot installs a library whose target's include directory is libs/<name>/include:
#   checked for the libraries asked for, so that the superproject can install them.

file(GLOB fake_boost_libraries RELATIVE ${BOOST_SUPERPROJECT_SOURCE_DIR}/libs
     ${BOOST_SUPERPROJECT_SOURCE_DIR}/libs/*/CMakeLists.txt)
list(TRANSFORM fake_boost_libraries REPLACE "/CMakeLists.txt$" "")
list(SORT fake_boost_libraries)

# The Boost libraries libs/<lib>/CMakeLists.txt names, in `out`.
function(fake_boost_dependencies lib out)
  file(STRINGS ${BOOST_SUPERPROJECT_SOURCE_DIR}/libs/${lib}/CMakeLists.txt lines)
  set(dependencies)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "#.*" "" code "${line}")
    string(REGEX MATCHALL "Boost::[A-Za-z0-9_]+" names "${code}")
    foreach(name IN LISTS names)
      string(REPLACE "Boost::" "" name ${name})
      if(NOT name STREQUAL "headers" AND NOT name STREQUAL lib)
        list(APPEND dependencies ${name})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES dependencies)
  set(${out} ${dependencies} PARENT_SCOPE)
endfunction()

set(fake_boost_selected ${fake_boost_libraries})
if(BOOST_INCLUDE_LIBRARIES)
  set(fake_boost_selected ${BOOST_INCLUDE_LIBRARIES})
  set(queue ${BOOST_INCLUDE_LIBRARIES})
  while(queue)
    list(POP_FRONT queue lib)
    if(NOT lib IN_LIST fake_boost_libraries)
      message(FATAL_ERROR "BoostRoot (stand-in): no libs/${lib}/CMakeLists.txt")
    endif()
    fake_boost_dependencies(${lib} dependencies)
    message(STATUS "BoostRoot (stand-in): ${lib} depends on: ${dependencies}")
    foreach(dependency IN LISTS dependencies)
      if(NOT dependency IN_LIST fake_boost_selected)
        list(APPEND fake_boost_selected ${dependency})
        list(APPEND queue ${dependency})
      endif()
    endforeach()
  endwhile()
endif()

foreach(lib IN LISTS fake_boost_libraries)
  if(lib IN_LIST fake_boost_selected)
    message(STATUS "BoostRoot (stand-in): adding libs/${lib}")
    add_subdirectory(libs/${lib})
  endif()
endforeach()

foreach(lib IN LISTS BOOST_INCLUDE_LIBRARIES)
  string(MAKE_C_IDENTIFIER ${lib} id)
  if(NOT TARGET boost_${id} OR NOT TARGET Boost::${id})
    message(FATAL_ERROR "BoostRoot (stand-in): libs/${lib} defines no boost_${id} and Boost::${id}")
  endif()
  get_target_property(include boost_${id} INTERFACE_INCLUDE_DIRECTORIES)
  set(expected ${BOOST_SUPERPROJECT_SOURCE_DIR}/libs/${lib}/include)
  if(NOT include STREQUAL expected AND NOT include STREQUAL "$<BUILD_INTERFACE:${expected}>")
    message(FATAL_ERROR "BoostRoot (stand-in): boost_${id}'s include directory is '${include}', "
      "not ${expected}: the superproject would not install it")
  endif()
endforeach()
