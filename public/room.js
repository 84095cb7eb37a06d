/* global document, window, navigator, location, fetch, WebSocket, RTCPeerConnection, MediaStream, MediaRecorder, AudioContext, setTimeout, setInterval, clearInterval */
// The interview room: a peer-to-peer WebRTC mesh between everyone in it, signalled over the
// lobby's live connection (src/room). Each newcomer offers a connection to everyone already
// present; the others answer. Recording mixes every picture and voice into one WebM that is
// uploaded in chunks while it records.
(() => {
  const root = document.getElementById('room');
  if (!root) return;
  const byId = (id) => document.getElementById(id);
  const audioOnly = root.dataset.audioOnly === 'true';
  const isInterviewer = root.dataset.role === 'interviewer';

  const state = {
    socket: null,
    you: null,
    iceServers: [],
    /** Connection id → { peer, pc, tile, pending ICE candidates }. */
    peers: new Map(),
    stream: new MediaStream(),
    joined: false,
    left: false,
    recording: null,
    /** The recording this page asked to start, once the service has created it. */
    recordingTarget: null,
    /** Recording id → when it begins, as the room was told (the news may beat our own answer). */
    announcements: new Map(),
  };

  // ---------------------------------------------------------------------------------------
  // Devices and preview
  // ---------------------------------------------------------------------------------------

  const DEVICE_PROBLEMS = {
    NotAllowedError: 'permission to use it was refused',
    SecurityError: 'permission to use it was refused',
    NotFoundError: 'none was found',
    OverconstrainedError: 'the chosen one is not available',
    NotReadableError: 'another application is using it',
  };
  const problemOf = (error) => DEVICE_PROBLEMS[error && error.name] || 'it could not be started';

  function say(id, text) {
    const element = byId(id);
    if (!element) return;
    element.textContent = text || '';
    element.hidden = !text;
  }

  function chosen(id) {
    const select = byId(id);
    return select && select.value ? { deviceId: { exact: select.value } } : true;
  }

  /** Opens the chosen microphone (and camera), falling back to audio alone, then to nothing. */
  async function openDevices() {
    for (const track of state.stream.getTracks()) track.stop();
    const audio = chosen('microphone-select');
    const video = audioOnly ? false : chosen('camera-select');
    const messages = [];
    let stream = null;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio, video });
    } catch (error) {
      if (video) {
        messages.push(`We could not use your camera: ${problemOf(error)}.`);
        try {
          stream = await navigator.mediaDevices.getUserMedia({ audio });
          messages.push('You can still join with audio only.');
        } catch (audioError) {
          messages.push(`We could not use your microphone either: ${problemOf(audioError)}.`);
        }
      } else {
        messages.push(`We could not use your microphone: ${problemOf(error)}.`);
      }
      if (!stream) {
        messages.push(
          'You can still join to see and hear the others. To be heard, allow this site to use ' +
            'your microphone in the browser settings, or connect one, then reload the page.',
        );
      }
    }
    state.stream = stream || new MediaStream();
    say('device-message', messages.join(' '));
    const preview = byId('preview-video');
    if (preview) preview.srcObject = state.stream.getVideoTracks().length ? state.stream : null;
    await listDevices();
    for (const { pc } of state.peers.values()) replaceTracks(pc);
    renderSelf();
  }

  async function listDevices() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.enumerateDevices) return;
    const devices = await navigator.mediaDevices.enumerateDevices();
    fill('microphone-select', devices, 'audioinput', state.stream.getAudioTracks()[0]);
    fill('camera-select', devices, 'videoinput', state.stream.getVideoTracks()[0]);
  }

  function fill(id, devices, kind, track) {
    const select = byId(id);
    if (!select) return;
    const current = track ? track.getSettings().deviceId : select.value;
    select.replaceChildren();
    devices
      .filter((device) => device.kind === kind)
      .forEach((device, index) => {
        const option = document.createElement('option');
        option.value = device.deviceId;
        option.textContent =
          device.label || `${kind === 'videoinput' ? 'Camera' : 'Microphone'} ${index + 1}`;
        option.selected = device.deviceId === current;
        select.append(option);
      });
  }

  // ---------------------------------------------------------------------------------------
  // The live connection
  // ---------------------------------------------------------------------------------------

  const FIRST_RETRY_MS = 2000;
  const LONGEST_RETRY_MS = 30000;
  let retryMs = FIRST_RETRY_MS;

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}${root.dataset.live}`);
    state.socket = socket;
    let openedAt = 0;
    socket.addEventListener('open', () => {
      openedAt = Date.now();
    });
    socket.addEventListener('message', (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      handle(message).catch((error) =>
        say('room-message', `Something went wrong: ${error.message}`),
      );
    });
    socket.addEventListener('close', () => {
      if (state.left || state.socket !== socket) return;
      const wasJoined = state.joined;
      closePeers();
      state.joined = false;
      // A connection that held a while was lost by chance: soon back. One the service refused
      // (too many pages open) or cut off at once (it stopped reading) waits longer each time.
      const held = openedAt > 0 && Date.now() - openedAt > LONGEST_RETRY_MS;
      retryMs = held ? FIRST_RETRY_MS : Math.min(retryMs * 2, LONGEST_RETRY_MS);
      say('connection-state', 'The connection was lost. Reconnecting…');
      setTimeout(() => {
        connect();
        if (wasJoined) state.socket.addEventListener('open', () => join(), { once: true });
      }, retryMs);
    });
  }

  function send(message) {
    if (state.socket && state.socket.readyState === WebSocket.OPEN) {
      state.socket.send(JSON.stringify(message));
    }
  }

  function join() {
    byId('join-button').disabled = true;
    send({ type: 'join', video: state.stream.getVideoTracks().length > 0 });
  }

  async function handle(message) {
    switch (message.type) {
      case 'room':
        return enterRoom(message);
      case 'peer-joined':
        return addPeer(message.peer, false);
      case 'peer-left':
        return removePeer(message.peer.id);
      case 'peer-media': {
        const entry = state.peers.get(message.peer.id);
        if (entry) entry.peer = message.peer;
        return renderParticipants();
      }
      case 'signal':
        return onSignal(message.from, message.data);
      case 'recording':
        return onRecording(message);
      case 'refused':
        byId('join-button').disabled = false;
        return say('room-message', message.message);
      case 'removed':
      case 'ended':
        return leaveRoom(message.message, message.type === 'removed');
      default:
        return undefined;
    }
  }

  function enterRoom(message) {
    state.you = message.you;
    state.iceServers = message.iceServers || [];
    state.joined = true;
    say('room-message', '');
    if (message.videoRefusal) {
      for (const track of state.stream.getVideoTracks()) {
        track.stop();
        state.stream.removeTrack(track);
      }
      say('video-notice', message.videoRefusal);
    }
    byId('room-preview').hidden = true;
    byId('room-stage').hidden = false;
    const preview = byId('preview-video');
    if (preview) preview.srcObject = null;
    renderSelf();
    for (const peer of message.peers) addPeer(peer, true);
    renderParticipants();
  }

  // ---------------------------------------------------------------------------------------
  // Peer connections
  // ---------------------------------------------------------------------------------------

  function addPeer(peer, weOffer) {
    let entry = state.peers.get(peer.id);
    if (!entry) {
      // The side that offers is the one that restarts a failed connection, so that the two never
      // offer to each other at once.
      entry = { peer, pc: null, tile: null, candidates: [], offerer: weOffer, restarts: 0 };
      state.peers.set(peer.id, entry);
      entry.pc = newConnection(entry);
    } else {
      entry.peer = peer;
    }
    if (entry.tile) entry.tile.querySelector('figcaption').textContent = peer.name;
    renderParticipants();
    if (weOffer) void offer(entry);
    return entry;
  }

  function newConnection(entry) {
    const pc = new RTCPeerConnection({ iceServers: state.iceServers });
    for (const track of state.stream.getTracks()) pc.addTrack(track, state.stream);
    if (!state.stream.getAudioTracks().length)
      pc.addTransceiver('audio', { direction: 'recvonly' });
    if (!audioOnly && !state.stream.getVideoTracks().length) {
      pc.addTransceiver('video', { direction: 'recvonly' });
    }
    pc.addEventListener('icecandidate', (event) => {
      if (event.candidate) {
        send({ type: 'signal', to: entry.peer.id, data: { candidate: event.candidate.toJSON() } });
      }
    });
    pc.addEventListener('track', (event) => {
      const media = tileFor(entry).querySelector('video, audio');
      media.srcObject = event.streams[0] || new MediaStream([event.track]);
      if (state.recording) state.recording.addStream(media.srcObject);
    });
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'connected') entry.restarts = 0;
      if (pc.connectionState === 'failed') restartIce(entry);
      renderParticipants();
    });
    return pc;
  }

  /**
   * A connection whose network path failed (a network change, a NAT binding that lapsed) gets
   * new ICE candidates over the same connection: the offerer offers again with an ICE restart,
   * the answerer answers it as any offer. A few times in a row at most, until it connects again.
   */
  const MOST_ICE_RESTARTS = 3;
  function restartIce(entry) {
    if (!entry.offerer || entry.restarts >= MOST_ICE_RESTARTS) return;
    if (state.peers.get(entry.peer.id) !== entry) return;
    entry.restarts += 1;
    void offer(entry, { iceRestart: true }).catch((error) =>
      say('room-message', `Reconnecting to ${entry.peer.name} failed: ${error.message}`),
    );
  }

  async function offer(entry, options) {
    const description = await entry.pc.createOffer(options);
    await entry.pc.setLocalDescription(description);
    send({ type: 'signal', to: entry.peer.id, data: { description: entry.pc.localDescription } });
  }

  async function onSignal(from, data) {
    // An offer can overtake the news that its sender joined.
    const entry =
      state.peers.get(from) ||
      addPeer(
        {
          id: from,
          name: 'Someone joining',
          role: 'interviewer',
          microphoneOn: true,
          cameraOn: true,
        },
        false,
      );
    const { pc } = entry;
    if (data.description) {
      await pc.setRemoteDescription(data.description);
      if (data.description.type === 'offer') {
        await pc.setLocalDescription(await pc.createAnswer());
        send({ type: 'signal', to: from, data: { description: pc.localDescription } });
      }
      for (const candidate of entry.candidates.splice(0)) await pc.addIceCandidate(candidate);
    } else if (data.candidate) {
      if (pc.remoteDescription) await pc.addIceCandidate(data.candidate);
      else entry.candidates.push(data.candidate);
    }
  }

  function replaceTracks(pc) {
    for (const sender of pc.getSenders()) {
      const kind = sender.track ? sender.track.kind : null;
      const next =
        kind === 'audio' ? state.stream.getAudioTracks()[0] : state.stream.getVideoTracks()[0];
      if (kind && next) void sender.replaceTrack(next);
    }
  }

  function removePeer(id) {
    const entry = state.peers.get(id);
    if (!entry) return;
    entry.pc.close();
    if (entry.tile) entry.tile.remove();
    state.peers.delete(id);
    renderParticipants();
  }

  function closePeers() {
    for (const id of [...state.peers.keys()]) removePeer(id);
  }

  // ---------------------------------------------------------------------------------------
  // What the page shows
  // ---------------------------------------------------------------------------------------

  function tileFor(entry) {
    if (entry.tile) return entry.tile;
    entry.tile = newTile(entry.peer.name, false);
    entry.tile.dataset.peer = entry.peer.id;
    return entry.tile;
  }

  function newTile(name, mine) {
    const tile = document.createElement('figure');
    tile.className = mine ? 'tile mine' : 'tile';
    const media = document.createElement(audioOnly ? 'audio' : 'video');
    media.autoplay = true;
    if (!audioOnly) media.playsInline = true;
    if (mine) media.muted = true;
    const caption = document.createElement('figcaption');
    caption.textContent = name;
    tile.append(media, caption);
    byId('videos').append(tile);
    return tile;
  }

  function renderSelf() {
    if (!state.joined) return;
    let tile = byId('videos').querySelector('.tile.mine');
    if (!tile) tile = newTile('You', true);
    const media = tile.querySelector('video, audio');
    if (media.srcObject !== state.stream) media.srcObject = state.stream;
  }

  const CONNECTION_WORDS = {
    new: 'connecting',
    connecting: 'connecting',
    connected: 'connected',
    disconnected: 'connection interrupted',
    failed: 'could not connect',
    closed: 'left',
  };

  function renderParticipants() {
    const list = byId('participants');
    list.replaceChildren();
    const people = [];
    if (state.you) people.push({ ...state.you, name: `${state.you.name} (you)`, connection: null });
    for (const { peer, pc } of state.peers.values())
      people.push({ ...peer, connection: pc.connectionState });
    for (const person of people) {
      const item = document.createElement('li');
      const details = [person.role === 'interviewer' ? 'interviewer' : 'interviewee'];
      if (person.connection) details.push(CONNECTION_WORDS[person.connection] || person.connection);
      if (!person.microphoneOn) details.push('muted');
      if (!audioOnly && !person.cameraOn) details.push('camera off');
      item.textContent = `${person.name} · ${details.join(' · ')}`;
      list.append(item);
    }
    const others = state.peers.size;
    const connected = [...state.peers.values()].filter(
      ({ pc }) => pc.connectionState === 'connected',
    ).length;
    say(
      'connection-state',
      !state.joined
        ? 'Not in the room.'
        : others === 0
          ? 'You are in the room. Waiting for the others to join…'
          : `Connected to ${connected} of ${others} ${others === 1 ? 'person' : 'people'} in the room.`,
    );
  }

  // ---------------------------------------------------------------------------------------
  // Controls
  // ---------------------------------------------------------------------------------------

  function toggle(kind, button, onWords, offWords) {
    const tracks = kind === 'audio' ? state.stream.getAudioTracks() : state.stream.getVideoTracks();
    if (!tracks.length) return;
    const on = !tracks[0].enabled;
    for (const track of tracks) track.enabled = on;
    button.textContent = on ? onWords : offWords;
    button.setAttribute('aria-pressed', String(!on));
    if (state.you) {
      state.you = {
        ...state.you,
        microphoneOn: kind === 'audio' ? on : state.you.microphoneOn,
        cameraOn: kind === 'video' ? on : state.you.cameraOn,
      };
      send({ type: 'media', microphoneOn: state.you.microphoneOn, cameraOn: state.you.cameraOn });
      renderParticipants();
    }
  }

  /** Out of the room, by the person's own choice (who may rejoin) or because the service said so. */
  function leaveRoom(message, backToLobby) {
    state.left = true;
    if (state.recording) void state.recording.stop();
    send({ type: 'leave' });
    closePeers();
    for (const track of state.stream.getTracks()) track.stop();
    state.joined = false;
    state.you = null;
    byId('room-stage').hidden = true;
    byId('room-preview').hidden = true;
    say('recording-notice', '');
    say('room-message', message);
    if (backToLobby) setTimeout(() => location.assign(root.dataset.lobby), 2500);
  }

  /** "You left the room" offers this: back in with fresh devices, over the same connection. */
  function leaveByChoice() {
    leaveRoom('You left the room.', false);
    byId('room-left').hidden = false;
  }

  async function rejoin() {
    byId('room-left').hidden = true;
    say('room-message', '');
    state.left = false;
    await openDevices();
    resetToggle(byId('microphone-button'), 'Mute');
    resetToggle(byId('camera-button'), 'Turn camera off');
    if (state.socket && state.socket.readyState === WebSocket.OPEN) return join();
    connect();
    state.socket.addEventListener('open', () => join(), { once: true });
  }

  function resetToggle(button, words) {
    if (!button) return;
    button.textContent = words;
    button.setAttribute('aria-pressed', 'false');
  }

  // ---------------------------------------------------------------------------------------
  // Recording (interviewers)
  // ---------------------------------------------------------------------------------------

  let noticeTimer = null;
  function onRecording(message) {
    clearInterval(noticeTimer);
    const button = byId('record-button');
    if (!message.active) {
      say('recording-notice', '');
      if (button) button.textContent = 'Start recording';
      return;
    }
    if (button) button.textContent = 'Stop recording';
    const show = () => {
      const seconds = Math.ceil((message.startsAt - Date.now()) / 1000);
      if (seconds > 0) {
        say(
          'recording-notice',
          `This interview will be recorded. Recording starts in ${seconds} s.`,
        );
      } else {
        clearInterval(noticeTimer);
        say('recording-notice', '● Recording: this interview is being recorded.');
      }
    };
    show();
    noticeTimer = setInterval(show, 250);
    state.announcements.set(message.recordingId, message.startsAt);
    startWhenAnnounced();
  }

  /** Starts our recorder once both our start was answered and the room was told about it. */
  function startWhenAnnounced() {
    const target = state.recordingTarget;
    if (!target || target.scheduled || !state.announcements.has(target.id)) return;
    target.scheduled = true;
    const wait = Math.max(0, state.announcements.get(target.id) - Date.now());
    setTimeout(() => startRecorder(target.id), wait);
  }

  async function api(path, init) {
    const response = await fetch(path, {
      credentials: 'same-origin',
      ...init,
      headers: { 'X-CSRF-Token': root.dataset.csrf, ...(init.headers || {}) },
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body.error || `the service answered ${response.status}`);
    }
    return response.status === 204 ? null : response.json();
  }

  async function toggleRecording() {
    const button = byId('record-button');
    button.disabled = true;
    try {
      if (state.recording) {
        await state.recording.stop();
      } else if (state.recordingTarget) {
        // Stopped during the notice, before anything was recorded.
        const { id } = state.recordingTarget;
        state.recordingTarget = null;
        await api(`${root.dataset.recordings}/${id}/stop`, { method: 'POST' });
      } else {
        const started = await api(root.dataset.recordings, { method: 'POST' });
        state.recordingTarget = { ...started, scheduled: false };
        startWhenAnnounced();
      }
    } catch (error) {
      say('room-message', `Recording: ${error.message}`);
    } finally {
      button.disabled = false;
    }
  }

  function startRecorder(recordingId) {
    const target = state.recordingTarget;
    if (!target || target.id !== recordingId) return;
    const mix = new Mix();
    mix.addStream(state.stream);
    for (const { tile } of state.peers.values()) {
      const media = tile && tile.querySelector('video, audio');
      if (media && media.srcObject) mix.addStream(media.srcObject);
    }
    const uploads = new ChunkUploads(target.chunkUrl);
    const mimeType = [
      'video/webm;codecs=vp8,opus',
      'video/webm',
      'audio/webm;codecs=opus',
      'audio/webm',
    ].find((type) => MediaRecorder.isTypeSupported(type));
    const recorder = new MediaRecorder(mix.stream(), mimeType ? { mimeType } : undefined);
    recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size) uploads.add(event.data);
    });
    const stopped = new Promise((resolve) =>
      recorder.addEventListener('stop', resolve, { once: true }),
    );
    recorder.start(2000);
    state.recording = {
      addStream: (stream) => mix.addStream(stream),
      stop: async () => {
        if (!state.recording) return;
        state.recording = null;
        if (recorder.state !== 'inactive') recorder.stop();
        await stopped;
        mix.close();
        await uploads.drained();
        state.recordingTarget = null;
        await api(`${root.dataset.recordings}/${recordingId}/stop`, { method: 'POST' });
      },
    };
  }

  /**
   * The largest rectangle with the picture's aspect ratio that fits a tile, centred in it: a 4:3
   * camera in a tall tile gets bars above and below instead of being stretched.
   */
  function letterboxed(pictureWidth, pictureHeight, tileWidth, tileHeight) {
    const scale = Math.min(tileWidth / pictureWidth, tileHeight / pictureHeight);
    const width = pictureWidth * scale;
    const height = pictureHeight * scale;
    return { x: (tileWidth - width) / 2, y: (tileHeight - height) / 2, width, height };
  }

  /** Every picture side by side on a canvas and every voice in one track. */
  class Mix {
    constructor() {
      this.audio = new AudioContext();
      this.destination = this.audio.createMediaStreamDestination();
      this.sources = [];
      this.canvas = audioOnly ? null : document.createElement('canvas');
      if (this.canvas) {
        this.canvas.width = 1280;
        this.canvas.height = 720;
        // Opaque: Chrome records a canvas with alpha as BlockGroups with an alpha layer.
        this.context = this.canvas.getContext('2d', { alpha: false });
        this.timer = setInterval(() => this.draw(), 1000 / 25);
      }
    }
    addStream(stream) {
      if (stream.getAudioTracks().length) {
        const source = this.audio.createMediaStreamSource(stream);
        source.connect(this.destination);
        this.sources.push(source);
      }
    }
    draw() {
      const context = this.context;
      const videos = [...byId('videos').querySelectorAll('video')].filter(
        (video) => video.videoWidth,
      );
      context.fillStyle = '#111';
      context.fillRect(0, 0, this.canvas.width, this.canvas.height);
      const columns = Math.ceil(Math.sqrt(videos.length || 1));
      const rows = Math.ceil((videos.length || 1) / columns);
      const width = this.canvas.width / columns;
      const height = this.canvas.height / rows;
      videos.forEach((video, index) => {
        const tile = { x: (index % columns) * width, y: Math.floor(index / columns) * height };
        const picture = letterboxed(video.videoWidth, video.videoHeight, width, height);
        context.drawImage(
          video,
          tile.x + picture.x,
          tile.y + picture.y,
          picture.width,
          picture.height,
        );
      });
    }
    stream() {
      const tracks = [...this.destination.stream.getAudioTracks()];
      if (this.canvas) tracks.unshift(...this.canvas.captureStream(25).getVideoTracks());
      return new MediaStream(tracks);
    }
    close() {
      clearInterval(this.timer);
      for (const source of this.sources) source.disconnect();
      void this.audio.close();
    }
  }

  /**
   * How long one chunk is sent again before the upload gives up: longer than the service takes
   * to free a chunk whose process died while saving it (RECORDING_CHUNK_CLAIM_SECONDS, 30 s).
   */
  const CHUNK_RETRY_MS = 120000;

  /**
   * Uploads chunks one after another, sending each again until the service has it. A chunk sent
   * again is safe: the service acknowledges the same bytes under a number it already has (204)
   * and asks to come back later (Retry-After) while another copy is being saved. What it refuses
   * for good (a 4xx without Retry-After: stopped, too large, a number it does not expect) cannot
   * be helped by sending it again, and nothing after it can be appended either, so the upload
   * ends there and says why.
   */
  class ChunkUploads {
    constructor(url) {
      this.url = url;
      this.sequence = 0;
      this.queue = Promise.resolve();
      this.failed = false;
    }
    add(blob) {
      const sequence = this.sequence++;
      this.queue = this.queue.then(() => this.upload(sequence, blob));
    }
    async upload(sequence, blob) {
      if (this.failed) return;
      const giveUpAt = Date.now() + CHUNK_RETRY_MS;
      for (let attempt = 0; ; attempt += 1) {
        let wait = Math.min(500 * 2 ** attempt, 8000);
        let problem;
        try {
          const response = await fetch(`${this.url}/${sequence}`, {
            method: 'PUT',
            credentials: 'same-origin',
            headers: {
              'X-CSRF-Token': root.dataset.csrf,
              'Content-Type': 'application/octet-stream',
            },
            body: blob,
          });
          if (response.ok) return;
          const body = await response.json().catch(() => ({}));
          problem = body.error || `the service answered ${response.status}`;
          const retryAfter = Number(response.headers.get('Retry-After'));
          if (retryAfter > 0) wait = retryAfter * 1000;
          else if (response.status < 500) return this.fail(problem);
        } catch (error) {
          problem = error.message;
        }
        if (Date.now() + wait > giveUpAt) return this.fail(problem);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    fail(problem) {
      this.failed = true;
      say('room-message', `The recording could not be saved past this point: ${problem}`);
    }
    drained() {
      return this.queue;
    }
  }

  // ---------------------------------------------------------------------------------------

  byId('room-preview').hidden = false;
  byId('join-button').addEventListener('click', join);
  for (const id of ['camera-select', 'microphone-select']) {
    const select = byId(id);
    if (select) select.addEventListener('change', () => void openDevices());
  }
  const microphone = byId('microphone-button');
  microphone.addEventListener('click', () => toggle('audio', microphone, 'Mute', 'Unmute'));
  const camera = byId('camera-button');
  if (camera)
    camera.addEventListener('click', () =>
      toggle('video', camera, 'Turn camera off', 'Turn camera on'),
    );
  const record = byId('record-button');
  if (record && isInterviewer) record.addEventListener('click', () => void toggleRecording());
  byId('leave-button').addEventListener('click', leaveByChoice);
  byId('rejoin-button').addEventListener('click', () =>
    rejoin().catch((error) => say('room-message', `Rejoining failed: ${error.message}`)),
  );
  window.addEventListener('pagehide', () => {
    if (state.recording) void state.recording.stop();
  });
  if (!navigator.mediaDevices || !window.RTCPeerConnection) {
    say(
      'device-message',
      'This browser cannot join video calls. Use a recent Chrome, Edge, Firefox or Safari.',
    );
    byId('join-button').disabled = true;
    return;
  }
  void openDevices();
  connect();
})();
