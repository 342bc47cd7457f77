import t from 'tap';
import { LruMap } from '../src/cache/lru-map.js';

t.test('by count: the least recently used goes first, a read counts as a use', async (t) => {
  const map = new LruMap<number>(2);
  map.set('a', 1);
  map.set('b', 2);
  t.equal(map.get('a'), 1);
  map.set('c', 3);
  t.equal(map.get('b'), undefined, 'b was the least recently used');
  t.equal(map.get('a'), 1);
  t.equal(map.get('c'), 3);
});

t.test('by weight: entries leave until the total fits, a replaced value gives its weight back', async (t) => {
  const map = new LruMap<string>(10, (value) => value.length);
  map.set('x', 'aaaa');
  map.set('y', 'bbbb');
  map.set('x', 'cc');
  t.equal(map.get('y'), 'bbbb', 'x replaced: 6 of 10 used, nothing evicted');
  map.set('z', 'dddddd');
  t.equal(map.get('x'), undefined, 'x (least recently used) left to make room');
  t.equal(map.get('y'), 'bbbb');
  t.equal(map.get('z'), 'dddddd');
});

t.test('delete: the entry goes and gives its weight back', async (t) => {
  const map = new LruMap<string>(6, (value) => value.length);
  map.set('x', 'aaaa');
  map.delete('x');
  map.delete('never there');
  map.set('y', 'bbbbbb');
  t.equal(map.get('x'), undefined, 'x deleted');
  t.equal(map.get('y'), 'bbbbbb', 'the whole capacity was free again');
});
