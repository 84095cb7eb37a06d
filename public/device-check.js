/* global document, window, navigator, localStorage, MediaStream, AudioContext, requestAnimationFrame, cancelAnimationFrame */
// The interviewee lobby's camera and microphone check (views/lobby-interviewee.njk): a mirrored
// preview, a level meter fed by a Web Audio analyser, and a choice of devices, so that device
// trouble shows up while waiting rather than in the interview. Nothing leaves the browser. The
// devices chosen are remembered under DEVICE_KEYS (localStorage of this origin) for the room.

/** Where the chosen devices' ids are kept: the room page opens the same ones when it can. */
export const DEVICE_KEYS = {
  camera: 'interview-room.camera',
  microphone: 'interview-room.microphone',
};

/** The device each kind of track comes from, as DEVICE_KEYS names them. */
const DEVICE_OF = { audio: 'microphone', video: 'camera' };

const PROBLEMS = {
  NotAllowedError: 'permission to use it was refused',
  SecurityError: 'permission to use it was refused',
  NotFoundError: 'none was found',
  OverconstrainedError: 'the chosen one is not available',
  NotReadableError: 'another application is using it',
};

// Below this level in dBFS the meter rests at zero: room noise, not speech.
const SILENCE_DB = -60;
// Each frame the shown level keeps this share of the last one, so a short sound stays visible.
const LEVEL_DECAY = 0.9;

const section = document.getElementById('device-check');
if (section) setUp(section);

function setUp(section) {
  const byId = (id) => document.getElementById(id);
  const withVideo = section.dataset.video === 'true';
  const devices = byId('device-check-devices');
  const preview = byId('device-check-video');
  const meter = byId('device-check-level');
  const startButton = byId('device-check-start');
  const stopButton = byId('device-check-stop');
  const startLabel = startButton.textContent;
  const selects = {
    camera: byId('device-check-camera'),
    microphone: byId('device-check-microphone'),
  };

  let stream = null;
  let audio = null;
  // A check started after this one, or a stop, makes an answer still on its way stale.
  let generation = 0;

  section.hidden = false;
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    say(
      'This browser cannot use a camera or microphone on this page. Open the link in an ' +
        'up-to-date browser (the page must be reached over HTTPS).',
    );
    startButton.hidden = true;
    return;
  }

  startButton.addEventListener('click', () => void begin());
  stopButton.addEventListener('click', stop);
  for (const [kind, select] of Object.entries(selects)) {
    if (!select) continue;
    select.addEventListener('change', () => {
      remember(kind, select.value);
      void begin();
    });
  }
  navigator.mediaDevices.addEventListener('devicechange', () => {
    if (stream) void listDevices();
  });
  // Leaving (for the room or anywhere) frees the camera and microphone for the next page.
  window.addEventListener('pagehide', stop);

  function say(text) {
    const message = byId('device-check-message');
    message.textContent = text;
    message.hidden = !text;
  }

  async function begin() {
    const mine = ++generation;
    release();
    say('');
    const opened = await openDevices();
    if (mine !== generation) {
      stopTracks(opened.stream);
      return;
    }
    say(opened.problems.join(' '));
    // After a problem the way out is to fix it and try again, even when one device works.
    startButton.textContent = 'Try again';
    startButton.hidden = opened.problems.length === 0;
    if (!opened.stream.getTracks().length) {
      devices.hidden = true;
      return;
    }
    stream = opened.stream;
    devices.hidden = false;
    stopButton.hidden = false;
    if (preview) {
      const sendsVideo = stream.getVideoTracks().length > 0;
      preview.srcObject = sendsVideo ? stream : null;
      preview.hidden = !sendsVideo;
    }
    showLevel(stream);
    await listDevices();
  }

  function stop() {
    generation += 1;
    release();
    devices.hidden = true;
    startButton.textContent = startLabel;
    startButton.hidden = false;
    stopButton.hidden = true;
  }

  function release() {
    stopTracks(stream);
    stream = null;
    if (preview) preview.srcObject = null;
    if (audio) {
      cancelAnimationFrame(audio.frame);
      void audio.context.close();
      audio = null;
    }
    setLevel(0);
  }

  /**
   * Both devices at once; when that fails, each alone, so that the message names the one that
   * failed and the other still works.
   */
  async function openDevices() {
    const kinds = withVideo ? ['audio', 'video'] : ['audio'];
    try {
      return { stream: await open(kinds), problems: [] };
    } catch (error) {
      if (!withVideo)
        return { stream: new MediaStream(), problems: [problemWith('microphone', error)] };
    }
    const combined = new MediaStream();
    const failures = {};
    for (const kind of kinds) {
      try {
        for (const track of (await open([kind])).getTracks()) combined.addTrack(track);
      } catch (error) {
        failures[kind] = error;
      }
    }
    return { stream: combined, problems: explain(failures) };
  }

  function explain({ audio: microphone, video: camera }) {
    const refused = (error) => error && PROBLEMS[error.name] === PROBLEMS.NotAllowedError;
    if (refused(microphone) && refused(camera)) {
      return [
        problemWith('camera and microphone', microphone),
        'Without them you can still join, but nobody will see or hear you.',
      ];
    }
    const problems = [];
    if (camera) problems.push(problemWith('camera', camera));
    if (microphone) problems.push(problemWith('microphone', microphone));
    if (camera && !microphone) problems.push('The interviewers will hear you, but not see you.');
    if (microphone && !camera) problems.push('The interviewers will see you, but not hear you.');
    return problems;
  }

  function problemWith(device, error) {
    const name = error && error.name;
    if (name === 'NotFoundError')
      return `No ${device} was found: connect one, then press “Try again”.`;
    if (PROBLEMS[name] === PROBLEMS.NotAllowedError) {
      const them = device.includes(' and ') ? 'them' : 'it';
      return (
        `Your browser did not let this page use your ${device}. Allow ${them} for this site in the ` +
        'browser’s settings (often the icon beside the address), then press “Try again”.'
      );
    }
    return `We could not use your ${device}: ${PROBLEMS[name] || 'it could not be started'}.`;
  }

  /**
   * The remembered devices of these kinds. Chromium passes over an "ideal" device id, so it is
   * asked for exactly; when one is gone (unplugged, or the site's data cleared, which renews the
   * ids), it is forgotten and the browser's default opens instead.
   */
  async function open(kinds) {
    const wanted = (pick) => Object.fromEntries(kinds.map((kind) => [kind, pick(DEVICE_OF[kind])]));
    const remembering = (device) => {
      const id = remembered(device);
      return id ? { deviceId: { exact: id } } : true;
    };
    try {
      return await navigator.mediaDevices.getUserMedia(wanted(remembering));
    } catch (error) {
      if (error.name !== 'OverconstrainedError') throw error;
      for (const kind of kinds) forget(DEVICE_OF[kind]);
      return navigator.mediaDevices.getUserMedia(wanted(() => true));
    }
  }

  function showLevel(source) {
    if (!source.getAudioTracks().length) return;
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    context.createMediaStreamSource(source).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    audio = { context, frame: 0, level: 0 };
    const current = audio;
    const measure = () => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      const decibels = 20 * Math.log10(Math.sqrt(sum / samples.length) || 1e-9);
      const loudness = Math.min(1, Math.max(0, (decibels - SILENCE_DB) / -SILENCE_DB));
      current.level = Math.max(loudness, current.level * LEVEL_DECAY);
      setLevel(current.level);
      current.frame = requestAnimationFrame(measure);
    };
    current.frame = requestAnimationFrame(measure);
  }

  function setLevel(level) {
    const rounded = Math.round(level * 100) / 100;
    if (Number(meter.value) === rounded) return;
    meter.value = rounded;
    meter.textContent = `${Math.round(rounded * 100)}%`;
  }

  async function listDevices() {
    const known = await navigator.mediaDevices.enumerateDevices();
    fill('microphone', known, 'audioinput', stream && stream.getAudioTracks()[0]);
    fill('camera', known, 'videoinput', stream && stream.getVideoTracks()[0]);
  }

  function fill(kind, known, deviceKind, track) {
    const select = selects[kind];
    if (!select) return;
    const inUse = track ? track.getSettings().deviceId : select.value;
    if (track) remember(kind, inUse);
    const options = known
      .filter((device) => device.kind === deviceKind)
      .map((device, index) => {
        const option = document.createElement('option');
        option.value = device.deviceId;
        option.textContent =
          device.label || `${kind === 'camera' ? 'Camera' : 'Microphone'} ${index + 1}`;
        option.selected = device.deviceId === inUse;
        return option;
      });
    select.replaceChildren(...options);
    select.closest('.field').hidden = options.length === 0;
  }
}

function stopTracks(stream) {
  if (stream) for (const track of stream.getTracks()) track.stop();
}

// Storage can be switched off or full: the check works without remembering.
function remembered(kind) {
  try {
    return localStorage.getItem(DEVICE_KEYS[kind]);
  } catch {
    return null;
  }
}

function forget(kind) {
  try {
    localStorage.removeItem(DEVICE_KEYS[kind]);
  } catch {
    // Nothing was remembered.
  }
}

function remember(kind, deviceId) {
  try {
    if (deviceId) localStorage.setItem(DEVICE_KEYS[kind], deviceId);
  } catch {
    // Not remembered: the room opens the browser's default device.
  }
}
