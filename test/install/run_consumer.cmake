# Install the built library into a fresh prefix, then configure, build and run the
# consumer project against that prefix only.
file(REMOVE_RECURSE ${WORK_DIR})

include(${CMAKE_CURRENT_LIST_DIR}/../run_checked.cmake)

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
# A sanitized library needs a consumer linked with the same sanitizer runtime.
set(sanitizer_flags)
if(SANITIZE)
  set(sanitizer_flags -DCMAKE_CXX_FLAGS=-fsanitize=${SANITIZE}
                      -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=${SANITIZE})
endif()
# The same Boost as the library's build (BOOST_DIR: its BoostConfig.cmake's folder).
set(boost_flags)
if(BOOST_DIR)
  set(boost_flags -DBoost_DIR=${BOOST_DIR})
endif()
run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Debug ${sanitizer_flags}
    ${boost_flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
# A user who asks for nothing gets this platform's default driver (see service_test).
run(${WORK_DIR}/build/consumer ${EXPECTED_DRIVER})
run(${WORK_DIR}/build/consumer_no_deprecated ${EXPECTED_DRIVER})
