import t from 'tap';
import { LeastBusy } from '../src/least-busy.js';

t.test('equal replicas are taken in turn', async (t) => {
  const replicas = new LeastBusy(3);
  const picks = Array.from({ length: 6 }, () => replicas.pick());
  t.same(picks, [0, 1, 2, 0, 1, 2]);
});

t.test('a replica holding requests gets no new one while another is free', async (t) => {
  const replicas = new LeastBusy(2);
  const slow = replicas.begin(0);
  replicas.begin(0);
  const picks = Array.from({ length: 4 }, () => {
    const replica = replicas.pick();
    replicas.begin(replica)();
    return replica;
  });
  t.same(picks, [1, 1, 1, 1], 'replica 0 has two in flight, replica 1 none once each is answered');
  slow();
  const next = replicas.pick();
  const done = replicas.begin(next);
  t.equal(next, 1, 'still one in flight on replica 0');
  done();
});

t.test('a replica whose connection failed rests, then comes back; if all rest, the least busy is tried', async (t) => {
  let now = 1_000;
  const replicas = new LeastBusy(2, () => now);
  replicas.rest(0);
  replicas.begin(1);
  replicas.begin(1);
  t.same([replicas.pick(), replicas.pick(), replicas.pick()], [1, 1, 1], 'never busy, yet passed over while it rests');
  now += 1_001;
  t.equal(replicas.pick(), 0, 'back after its rest, and the least busy');
  replicas.rest(0);
  replicas.rest(1);
  t.equal(replicas.pick(), 0, 'every replica rests: the least busy is tried all the same');
});
