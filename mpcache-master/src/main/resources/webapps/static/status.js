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

function hitRatio(c) {
  const bytes = c.bytesFromCache + c.bytesFromHdfs;
  // Bytes, not lookups: the share of the bytes read through the slave that came from its SSD.
  return bytes > 0 ? c.bytesFromCache / bytes : null;
}

// A slave's SSD directories: how many are in service, and each one out of service with since
// when and why (mpcache.slave.volume.*; back with mpcache admin refresh or a restart).
function dirs(sp) {
  const all = sp.dirs || [];
  const out = all.filter(d => !d.inService);
  if (out.length === 0) {
    return all.length + ' in service';
  }
  return out.length + ' of ' + all.length + ' out of service: ' + out.map(d => d.dir
      + ' since ' + new Date(d.outSinceMs).toISOString() + ' (' + d.cause + ')').join('; ');
}

function render(s) {
  const r = s.report;
  const slaves = r.slaves || [];
  const live = slaves.filter(x => x.live).length;
  document.getElementById('summary').textContent = 'Policy ' + r.policy + ', up '
      + Math.round(r.masterUptimeMs / 1000) + ' s, ' + live + ' live slave'
      + (live === 1 ? '' : 's') + ', ' + (slaves.length - live) + ' dead.';
  const tbody = document.querySelector('#slaves tbody');
  tbody.replaceChildren();
  for (const x of slaves) {
    const sp = x.space;
    const c = x.counters;
    const id = x.slave.slaveId;
    const state = !x.live ? ' (dead)' : x.decommissioning ? ' (decommissioning)' : '';
    row(tbody, [
      id + state,
      x.slave.datanodeAddress || '-',
      (x.lastHeartbeatAgeMs / 1000).toFixed(1) + ' s ago',
      bytes(sp.capacity),
      bytes(sp.inputCacheUsed) + ' / ' + bytes(sp.inputCacheCapacity),
      bytes(sp.dynamicPoolCapacity) + ' (' + bytes(sp.poolLentToInput) + ' / '
          + bytes(sp.poolLentToLocalized) + ')',
      bytes(sp.localizedCacheUsed) + ' / ' + bytes(sp.localizedCacheCapacity),
      String(x.cachedBlocks),
      c.hits + ' / ' + c.misses,
      percent(hitRatio(c)),
      String(c.fallbacks),
      dirs(sp),
    ], {'class': x.live ? 'slave live' : 'slave dead', 'data-slave-id': id,
      'data-dirs-out': String((sp.dirs || []).filter(d => !d.inService).length)});
  }
  if (slaves.length === 0) {
    note(tbody, 12, 'No slave has registered.');
  }
  const datasets = document.querySelector('#datasets tbody');
  datasets.replaceChildren();
  // Without the right to see dataset paths the master sends each dataset's figures only.
  const hidden = document.getElementById('datasets-note');
  hidden.textContent = 'Dataset paths are shown to users in mpcache.admin.acl or '
      + 'mpcache.admin.read.acl only; you are ' + (s.user ? s.user : 'not signed in') + '.';
  hidden.hidden = s.datasetPaths;
  for (const d of s.datasets) {
    row(datasets, [
      s.datasetPaths ? d.datasetId : '(path hidden)',
      d.priority === undefined ? '-' : d.priority.toFixed(3),
      percent(d.sizeBlocks > 0 ? d.cachedBlocks / d.sizeBlocks : null) + (d.full ? ' (full)' : ''),
      d.cachedBlocks + ' / ' + d.sizeBlocks,
      d.frequency.toFixed(2),
    ], s.datasetPaths ? {'class': 'dataset', 'data-dataset-id': d.datasetId}
        : {'class': 'dataset'});
  }
  if (s.datasets.length === 0) {
    note(datasets, 5, 'No dataset has been read through the cache yet.');
  }
  renderFigures(s);
  document.body.setAttribute('data-loaded', 'true');
}

// The figures slaves counted per dataset, most bytes read first; exact numbers in data-*.
function renderFigures(s) {
  const tbody = document.querySelector('#dataset-stats tbody');
  tbody.replaceChildren();
  const read = d => (d.bytesFromCache || 0) + (d.bytesFromHdfs || 0);
  const counted = s.datasets.filter(d => d.hits || d.misses || read(d) > 0 || d.fills)
      .sort((a, b) => read(b) - read(a));
  for (const d of counted) {
    const attrs = {'class': 'dataset-stats', 'data-hits': d.hits || 0,
      'data-misses': d.misses || 0, 'data-bytes-from-cache': d.bytesFromCache || 0,
      'data-bytes-from-hdfs': d.bytesFromHdfs || 0};
    if (s.datasetPaths) {
      attrs['data-dataset-id'] = d.datasetId;
    }
    row(tbody, [
      s.datasetPaths ? d.datasetId : '(path hidden)',
      (d.hits || 0) + ' / ' + (d.misses || 0),
      percent(d.byteHitRatio),
      bytes(d.bytesFromCache || 0),
      bytes(d.bytesFromHdfs || 0),
      (d.fills || 0) + ' / ' + (d.evictions || 0),
    ], attrs);
  }
  if (counted.length === 0) {
    note(tbody, 6, 'No slave has reported figures for a dataset yet.');
  }
}

function refresh() {
  fetch('/status.json', {cache: 'no-store'})
      .then(r => {
        if (r.status === 401 || r.status === 403) {
          throw new Error('HTTP ' + r.status + ': the status is shown to mpcache.admin.acl and '
              + 'mpcache.admin.read.acl only; sign in as one of them.');
        }
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
