// Source text run inside an in-process engine (QuickJS, isolated-vm) before the program: the same line-buffered
// `write` as the PTC child and the Worker contender, handing each completed line to the host through `emit`.
export function lineBufferSource(emit) {
  return `
    let fragments = [], blocks = [];
    const flush = () => { if (fragments.length || blocks.length) { ${emit}(blocks.join('') + fragments.join('')); fragments = []; blocks = []; } };
    const write = (text) => {
      let start = 0, nl = text.indexOf('\\n');
      while (nl >= 0) { fragments.push(text.slice(start, nl)); flush(); start = nl + 1; nl = text.indexOf('\\n', start); }
      if (start < text.length) {
        fragments.push(start === 0 ? text : text.slice(start));
        if (fragments.length >= 1024) { blocks.push(fragments.join('')); fragments = []; if (blocks.length >= 1024) blocks = [blocks.join('')]; }
      }
    };`;
}
