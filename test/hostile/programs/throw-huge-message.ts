// about: throws an Error with a 5 MB message
// expect: output-limit|exception
throw new Error('m'.repeat(5_000_000));
