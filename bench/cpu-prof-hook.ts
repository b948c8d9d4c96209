// Preloaded into the API server by bench/api.ts (`node --import`): SIGUSR2 starts V8's CPU profiler,
// the next SIGUSR2 stops it and writes the profile to $BENCH_CPU_PROFILE, so a profile covers the
// measured window only (not start-up, not the warm-up).
import { renameSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'

const target = process.env.BENCH_CPU_PROFILE
const intervalUs = Number(process.env.BENCH_CPU_PROFILE_INTERVAL_US ?? 1000)
if (target) {
  const session = new Session()
  session.connect()
  let running = false
  let round = 0
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true
      session.post('Profiler.enable', () =>
        session.post('Profiler.setSamplingInterval', { interval: intervalUs }, () =>
          session.post('Profiler.start'),
        ),
      )
      return
    }
    running = false
    const file = `${target}.${round++}.cpuprofile`
    session.post('Profiler.stop', (error, result) => {
      writeFileSync(`${file}.tmp`, JSON.stringify(error ? { error: String(error) } : result.profile))
      // Renamed once complete: the bench waits for this name.
      renameSync(`${file}.tmp`, file)
    })
  })
}
