// Renders /status.json into the status page. Every value goes in through textContent, never
// innerHTML, so names from the cluster (hosts, dataset paths) cannot inject markup.
'use strict';

function bytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return (i === 0 ? v : v.toFixed(1)) + ' ' + units[i];
}

function percent(r) {
  return r === null || r === undefined ? '-' : (100 * r).toFixed(1) + '%';
}

function row(tbody, cells, attrs) {
  const tr = document.createElement('tr');
  for (const [k, v] of Object.entries(attrs || {})) {
    tr.setAttribute(k, v);
  }
  for (const c of cells) {
    const td = document.createElement('td');
    td.textContent = c;
    tr.appendChild(td);
  }
  tbody.appendChild(tr);
}

function note(tbody, columns, text) {
  const tr = document.createElement('tr');
  const td = document.createElement('td');
  td.colSpan = columns;
  td.className = 'note';
  td.textContent = text;
  tr.appendChild(td);
  tbody.appendChild(tr);
}

function render(s) {
  const live = s.slaves.filter(x => x.live).length;
  document.getElementById('summary').textContent = 'Policy ' + s.policy + ', up '
      + Math.round(s.uptimeMs / 1000) + ' s, ' + live + ' live slave' + (live === 1 ? '' : 's')
      + '.';
  const slaves = document.querySelector('#slaves tbody');
  slaves.replaceChildren();
  for (const x of s.slaves) {
    const sp = x.space;
    row(slaves, [
      x.id + (x.live ? '' : ' (dead)'),
      x.datanode || '-',
      (x.lastHeartbeatAgeMs / 1000).toFixed(1) + ' s ago',
      bytes(sp.capacity),
      bytes(sp.inputCacheUsed) + ' / ' + bytes(sp.inputCacheCapacity),
      bytes(sp.dynamicPoolCapacity) + ' (' + bytes(sp.poolLentToInput) + ' / '
          + bytes(sp.poolLentToLocalized) + ')',
      bytes(sp.localizedCacheUsed) + ' / ' + bytes(sp.localizedCacheCapacity),
      String(x.cachedBlocks),
      x.hits + ' / ' + x.misses,
      percent(x.hitRatio),
      String(x.fallbacks),
    ], {'class': x.live ? 'slave live' : 'slave dead', 'data-slave-id': x.id});
  }
  if (s.slaves.length === 0) {
    note(slaves, 11, 'No slave has registered.');
  }
  const datasets = document.querySelector('#datasets tbody');
  datasets.replaceChildren();
  if (!Array.isArray(s.datasets)) {
    note(datasets, 4, 'This master does not report datasets.');
  } else if (s.datasets.length === 0) {
    note(datasets, 4, 'No dataset has been read through the cache yet.');
  } else {
    for (const d of s.datasets) {
      row(datasets, [
        d.dataset,
        d.priority.toFixed(3),
        percent(d.totalBlocks > 0 ? d.cachedBlocks / d.totalBlocks : null),
        d.cachedBlocks + ' / ' + d.totalBlocks,
      ], {'class': 'dataset'});
    }
  }
  document.body.setAttribute('data-loaded', 'true');
}

function refresh() {
  fetch('/status.json', {cache: 'no-store'})
      .then(r => {
        if (!r.ok) {
          throw new Error('HTTP ' + r.status + ' ' + r.statusText);
        }
        return r.json();
      })
      .then(s => {
        document.getElementById('error').hidden = true;
        render(s);
      })
      .catch(e => {
        const el = document.getElementById('error');
        el.textContent = 'Cannot read /status.json: ' + e.message;
        el.hidden = false;
      });
}

refresh();
setInterval(refresh, 5000);
