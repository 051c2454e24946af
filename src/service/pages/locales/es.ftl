# Las palabras de las páginas en español. Cada catálogo (en.ftl, es.ftl,
# de.ftl) tiene todos los mensajes: lo comprueba una prueba en
# src/service/i18n.rs.

## Shared
lang-name = Español
lang-label = Idioma de esta página
white = Blancas
black = Negras
white-lower = blanco
black-lower = negro
skip-to-move = Saltar a la casilla de jugada
loading = Cargando la partida…
access-h = Acceso
token-label = Clave de { $role }
token-save = Guardar
role-player = jugador
role-assistant = asistente
role-arbiter = árbitro
notation-label = Letras de las piezas
notation-table = La de la mesa
notation-auto = Cualquier idioma
notation-en = Inglés (K Q R B N)
notation-de = Alemán (K D T L S)
notation-es = Español, italiano (R D T A C)
notation-fr = Francés (R D T F C)
notation-nl = Neerlandés (K D T L P)

## Index
index-intro = Ajedrez según el Apéndice D para jugadores ciegos y con discapacidad visual. Abra su página con el enlace (lleva su clave de acceso) que se dio al arrancar.
index-tables = Mesas
index-row = Mesa { $table }:
index-player = jugador
index-assistant = asistente
index-arbiter = árbitro
index-all = Todas las mesas (árbitro)

## Player page
player-title = Jugador, mesa { $table }
player-say-h = Anuncios
player-log-label = Anuncios y respuestas, el más reciente al final
player-move-h = Su jugada o una orden
player-move-label = Jugada u orden
player-send = Enviar
player-help = Escriba una jugada en cualquier notación (e4, Cf3, Nf3, Cg1-f3, O-O, e8=D) y pulse Intro. Órdenes:
player-help-clock = reloj
player-help-left = tiempo restante
player-help-used = tiempo usado
player-help-last = últimas jugadas
player-help-repeat = repetir el último anuncio
player-help-diff = diferencias del tablero
player-help-pieces = y una pieza ({ $example1 }, { $example2 } para el rey negro): dónde están esas piezas
player-help-line = y una columna o fila ({ $example1 }, { $example2 }): qué hay en ella
player-help-all = todas las jugadas.
player-btn-clock = Reloj
player-btn-last = Últimas jugadas
player-btn-repeat = Repetir
player-btn-diff = Diferencias del tablero
player-btn-all = Todas las jugadas
player-token-note = El enlace que le dio el árbitro lleva su clave; sin ella puede escuchar pero no jugar.

## Assistant page
assistant-title = Asistente, mesa { $table }
assistant-move-h = Introducir una jugada
assistant-move-label = Jugada (cualquier notación: e4, Cf3, Nf3, Sf3, Cg1-f3, 0-0)
assistant-move-btn = Hacer la jugada
assistant-act-h = Para el jugador (D.2.10)
assistant-repeat = Repetir el último anuncio
assistant-say-clock = Decir el reloj
assistant-say-used = Decir el tiempo usado
assistant-say-diff = Decir las diferencias del tablero
assistant-touched-by = Tocada por
assistant-on-square = en la casilla
assistant-square-title = una casilla como e2
assistant-touched-btn = Anotar pieza tocada
assistant-side = Bando
assistant-offers = Ofrece tablas
assistant-declines = Rechaza las tablas
assistant-claim-move = Jugada declarada con la reclamación (opcional, no se juega)
assistant-claim-threefold = Reclama triple repetición
assistant-claim-fifty = Reclama cincuenta jugadas
assistant-resigns = Abandona
assistant-draw-agreed = Tablas acordadas
assistant-flag = Reclamar caída de bandera
assistant-clock-h = Reloj
assistant-start = Poner el reloj en marcha
assistant-pause = Detener para el árbitro
assistant-resume = Reanudar
assistant-log-h = Anuncios
assistant-log-label = Anuncios, el más reciente al final
assistant-moves-h = Jugadas
assistant-pgn = Descargar PGN

## Arbiter page
arbiter-title = Árbitro
arbiter-all-h = Todas las mesas
arbiter-caption = Cada mesa: jugadores, jugadas, relojes, tablero y avisos
arbiter-col-table = Mesa
arbiter-col-players = Jugadores
arbiter-col-moves = Jugadas
arbiter-col-board = Tablero
arbiter-col-result = Resultado
arbiter-col-alerts = Avisos
arbiter-pgn-all = Descargar el PGN de todas las mesas
arbiter-table-h = Mesa
arbiter-game-board = Posición de la partida
arbiter-blind-board = Tablero táctil
arbiter-record-h = Registro
arbiter-ruling-h = D.2.9: tableros que no coinciden
arbiter-white-sheet = Planilla de las blancas
arbiter-black-sheet = Planilla de las negras
arbiter-check-ruling = Comprobar la decisión
arbiter-apply-ruling = Aplicar la decisión y restaurar los relojes
arbiter-ruling-label = Decisión
arbiter-clock-h = Reloj y penalizaciones
arbiter-illegal-by = Jugada ilegal completada (7.5.5) por
arbiter-illegal-btn = Declararla completada
arbiter-adj-seconds = Segundos (negativos para quitar)
arbiter-adj-reason = Motivo
arbiter-adj-reason-default = Artículo 7.5.5: jugada ilegal del adversario
arbiter-adjust = Ajustar el reloj
arbiter-pause = Detener el reloj
arbiter-resume = Reanudar el reloj
arbiter-result = Resultado
arbiter-result-reason-default = decisión del árbitro
arbiter-set-result = Fijar el resultado
arbiter-pgn-one = Descargar el PGN de esta mesa
arbiter-log-label = Sucesos de la mesa, el más reciente al final

## Used by the scripts
js-white = Blancas
js-black = Negras
js-white-lower = blancas
js-black-lower = negras
js-server-unreachable = No se puede contactar con el servidor.
js-request-failed = La petición falló
js-token-saved = Clave guardada para esta pestaña.
js-refused = Rechazado: { $error }
js-no-moves = Aún no hay jugadas.
js-connection-lost = Se perdió la conexión con el servidor; reintentando…
js-you-play = Juega con { $side }.
js-game-over = Partida terminada: { $result }, { $reason }.
js-to-move-number = Juegan { $side }, jugada { $number }.
js-to-move = Juegan { $side }.
js-board-not-connected = Tablero no conectado.
js-board-differs-yours = Su tablero no coincide con la partida.
js-still-loading = La partida aún se está cargando.
js-nothing-to-repeat = Aún no hay nada que repetir.
js-last-moves = Últimas jugadas: { $moves }
js-board-shows-game = Su tablero coincide con la partida.
js-pieces-at = { $piece }: { $squares }
js-none = ninguna
js-empty = vacía
js-last-announcement = Último anuncio: { $text }
js-piece-k = rey
js-piece-q = dama
js-piece-r = torre
js-piece-b = alfil
js-piece-n = caballo
js-piece-p = peón
js-colored-piece = { $piece } de las { $color }
js-blind-player = Jugador ciego: { $side }.
js-draw-offered-by = Tablas ofrecidas por { $side }.
js-running = en marcha
js-flag-claim = Se acabó el tiempo de { $side }: reclame la caída de bandera (D.2.10.5).
js-tactile-not-connected = Tablero táctil: no conectado.
js-tactile-in-sync = Tablero táctil: coincide con la partida.
js-tactile-differs = Tablero táctil: no coincide con la partida en { $squares }.
js-alert = Aviso: { $alerts }
js-alerts-none = Avisos: ninguno.
js-no-board = sin tablero
js-not-connected = no conectado
js-in-sync = coincide
js-differs = no coincide ({ $squares })
js-table = Mesa { $table }
js-playing = en juego
js-differs-at = no coincide en { $squares } (marcadas con *)
js-no-differences = sin diferencias
js-square-differs = no coincide
js-result = Resultado { $result } ({ $reason }).
js-flag-arbiter = Se acabó el tiempo de { $side }: la bandera ha caído en cuanto usted lo observa o se reclama (6.8).
js-kind = Es una partida { $kind } (Apéndice A.1, B.1): cada penalización de tiempo de los artículos 7 y 9 es de { $minutes } min.
js-illegal-completed = Jugadas ilegales completadas: Blancas { $white }, Negras { $black } (la segunda pierde la partida, 7.5.5).
js-flag-auto = Un reloj que llega a cero termina la partida en el acto.
js-flag-claim-rule = Un reloj que llega a cero termina la partida cuando se reclama la caída.
js-touched = Tocadas: { $list }.
js-illegal-attempts = Intentos ilegales: { $list }.
js-ruling-case = Caso: { $case }. Medias jugadas acordadas: { $plies }.
js-ruling-first = Primera diferencia en la media jugada { $ply }: planilla de las blancas { $white }, de las negras { $black }.
js-ruling-nothing = (nada)
js-ruling-agree = Las planillas coinciden.
js-ruling-position = Posición en la que seguir: { $fen }
js-ruling-clocks = Relojes: Blancas { $white }, Negras { $black } ({ $how }).
js-ruling-proposal = una propuesta
js-ruling-recorded = según el registro
js-arbiter-table = Árbitro, mesa { $table }

## Relojes (páginas del asistente, del árbitro y del rival)
clocks-h = Relojes
js-clock-of = Reloj de { $side }
js-clock-to-move = juegan
js-clock-low = poco tiempo
js-clock-time-up = tiempo agotado
js-clock-running = El reloj está en marcha.
js-clock-stopped = El reloj está parado.

## La página del rival que ve (D.2.11)
role-opponent = rival
index-opponent = rival (letra grande)
opponent-link = Página para un rival que ve pero no oye los anuncios: el último anuncio y los relojes en letra grande
second-blind-h = El enlace del segundo jugador ciego
opponent-title = Mesa { $table }: anuncios y relojes
opponent-said-h = Último anuncio
opponent-none-yet = Aún no se ha anunciado nada.
opponent-new = Nuevo
opponent-moves-h = Últimas jugadas
opponent-note = Cada anuncio de la mesa aparece aquí cuando se dice, numerado; el número y la marca «Nuevo» cambian con cada uno.
js-opponent-count = Anuncio { $number }
js-opponent-earlier = Dicho antes de abrir esta página
js-players = Blancas: { $white } · Negras: { $black }

## Página del jugador: órdenes como botones, el tablero, ajustes, sonido
player-btn-left = Tiempo restante
player-btn-used = Tiempo usado
player-help-board = ir al tablero
player-pieces-label = Dónde están
player-pieces-btn = Decir las casillas
player-piece-K = el rey blanco
player-piece-Q = la dama blanca
player-piece-R = las torres blancas
player-piece-B = los alfiles blancos
player-piece-N = los caballos blancos
player-piece-P = los peones blancos
player-piece-k = el rey negro
player-piece-q = la dama negra
player-piece-r = las torres negras
player-piece-b = los alfiles negros
player-piece-n = los caballos negros
player-piece-p = los peones negros
player-line-label = Qué hay en la columna o fila
player-line-btn = Decir las casillas
player-board-h = Tablero
player-board-help = El tablero desde su lado, casilla a casilla. Entre con el tabulador y luego: las flechas mueven una casilla (arriba es hacia el rival); Inicio y Fin van a los extremos de la fila, con Ctrl a las esquinas; 1 a 8 van a esa fila; Mayúsculas con 1 a 8 va a las columnas a a h; k, q, r, b, n, p van al siguiente rey, dama, torre, alfil, caballo o peón, con Mayúsculas al anterior; l nombra las casillas de la última jugada; Intro o Espacio sobre una pieza y luego sobre una casilla hace esa jugada; Escape vuelve al cuadro de jugadas.
player-board-last = Casillas de la última jugada
player-board-enter = Ir al tablero
player-more-h = Más consultas y ajustes
player-more-summary = Dónde están las piezas, qué hay en una línea, cómo se escriben y se teclean las jugadas, el idioma de la página
player-settings-h = Ajustes
player-style-label = Jugadas escritas en forma
player-style-standard = normal (Cf3)
player-style-long = larga, con la casilla de salida (Cg1-f3)
player-style-note = Para las jugadas que escribe esta página (últimas jugadas, todas, el tablero); se guarda en este navegador. Los anuncios hablados siguen el estilo de la mesa.
player-sound-h = Sonido
player-sound-label = Sonido en este dispositivo
player-sound-note = Reproduce cada anuncio en este teléfono u ordenador, con la voz de la mesa (use auriculares). Los anuncios siguen escritos arriba para su lector de pantalla en cualquier caso.
js-you-play-against = Juega con { $side } contra { $name } ({ $other }).
js-no-sound-at-table = No hay sonido en la mesa: los anuncios solo se escriben aquí hasta que vuelva.
js-last-move = Última jugada: { $side } { $move }, de { $from } a { $to }.
js-board-rank = Fila
js-board-square = { $square }, { $piece }
js-board-last-from = última jugada desde aquí
js-board-last-to = última jugada hasta aquí
js-board-picked = elegida
js-board-edge = Borde del tablero: { $square } es la última casilla en esa dirección.
js-board-no-piece = { $piece }: no hay ninguna pieza de ese tipo en el tablero.
js-board-only-one = { $piece }: es la única pieza de ese tipo.
js-board-pick-empty = { $square } está vacía: elija una pieza para mover.
js-board-picked-say = { $square }, { $piece }, elegida: ahora la casilla de destino, otra vez Intro. Escape la suelta.
js-board-unpicked = Nada elegido.
js-board-sending = Jugando de { $from } a { $to }.
js-board-refused = La jugada fue rechazada: el motivo está en los anuncios.
js-board-promotion = Promoción: el cuadro de jugadas tiene la jugada; escriba la letra de la pieza (Q, R, B o N, o D, T, A, C) y pulse Intro.
js-sound-no-voice = la voz no está disponible
js-sound-loading = Cargando la voz…
js-sound-loading-count = Cargando la voz: { $done } de { $total } palabras.
js-sound-on = Sonido activado: los anuncios suenan en este dispositivo.
js-sound-off = Sonido desactivado en este dispositivo.
js-sound-failed = No hay sonido en este dispositivo: { $error }
js-sound-stopped = El sonido se detuvo en este dispositivo (lo pausó el navegador o el sistema): desactive y vuelva a activar el sonido.

# The competition: rounds on the arbiter's overview.
rounds-h = Rondas
rounds-new-h = Una ronda nueva
rounds-venue-token = Preparar e iniciar rondas necesita el enlace del árbitro principal (se muestra al arrancar).
rounds-trf-file = El archivo TRF del programa de emparejamientos
rounds-round = Ronda
rounds-trf-set-up = Preparar la ronda desde el archivo
rounds-start = Poner en marcha todos los relojes de la ronda
rounds-trf-download = Descargar el archivo TRF con los resultados
js-round = Ronda { $round }
js-round-pgn = PGN de la ronda { $round }
js-round-game = Mesa { $table }: { $white } – { $black }, { $state }
js-game-not-begun = sin empezar
js-game-under-way = en juego
js-game-finished = { $result }
js-round-set-up = Ronda { $round } preparada en { $count } mesas.
js-round-unpaired = { $name }: { $why }
js-round-started = Ronda { $round }: relojes en marcha en { $count } mesas.
js-no-rounds = Todavía no se ha preparado ninguna ronda.

## Página del jugador: ayuda a petición, respuestas, conexión, teléfono
player-help-h = Órdenes (ayuda)
player-help-help = esta ayuda.
player-answers-h = Respuestas
player-reader-too = El lector de pantalla lee también los anuncios
player-reader-too-note = Con el sonido en este dispositivo, los anuncios se muestran pero no se pasan a su lector de pantalla, para que no hable encima del sonido; márquelo para oír ambos.
player-wake-label = Mantener la pantalla encendida
js-connection-lost-alert = Se perdió la conexión con el servidor. No se pueden enviar jugadas hasta que vuelva.
js-connection-back = La conexión con el servidor ha vuelto.
js-while-away = Mientras estaba fuera:
js-nothing-missed = Mientras tanto no se anunció nada.
js-some-missed-lost = Faltan algunos anuncios; escriba m para todas las jugadas.
js-clock-now = Reloj: blancas { $white }, negras { $black }.
js-not-sent = No enviada: { $move }. No se puede contactar con el servidor; escriba la jugada de nuevo cuando vuelva la conexión.
js-no-answer = Sin respuesta del servidor: puede que { $move } no se haya hecho. Escuche el anuncio, o escriba l.
js-not-your-turn = No es su turno: juegan { $side }.
js-game-is-over = La partida ha terminado: no hay más jugadas.
js-refused-illegal = { $move } no es una jugada legal aquí.
js-refused-in-check = Su rey está en jaque.
js-refused-unreadable = { $move } no es una jugada.
js-refused-ambiguous = { $move } corresponde a varias jugadas: { $moves }.
js-wake-on = La pantalla sigue encendida mientras se muestra esta página.
js-wake-off = La pantalla puede apagarse.
js-wake-unavailable = Este navegador no puede mantener la pantalla encendida para esta página (necesita HTTPS).
js-wake-refused = No se puede mantener la pantalla encendida: { $error }
js-refused-own-piece = En { $square } hay una pieza propia: { $piece }.
js-round-is = Ronda { $round }.
js-new-game = Una partida nueva.

## Las tarjetas de mesa (/arbiter/cards, card.brf)
cards-title = Tarjetas de mesa
cards-intro = Una tarjeta por mesa y persona: escanee el código con la cámara del teléfono o escriba el enlace. Cada enlace es la llave de esa persona a su página: entregue cada tarjeta solo a su persona.
cards-print = Imprimir las tarjetas
cards-table = Mesa { $table }
card-plays-white = juega con blancas
card-plays-black = juega con negras
card-brf-link = Su página:
js-cards-need-token = Las tarjetas necesitan el enlace del árbitro principal que tactus muestra al arrancar (termina en #token=…).
js-cards-failed = No se pudieron cargar las tarjetas: { $error }
js-cards-ready = { $count } tarjetas listas para imprimir.

## La revisión de la sala en la vista general del árbitro (hall-check.js)
hall-check-h = Revisión de la sala
hall-check-run = Revisar todas las mesas
hall-check-caption = Las partes de cada mesa: tableros, sonido, línea braille
hall-check-col-part = Parte
hall-check-col-result = Resultado
hall-check-col-again = Revisar de nuevo
js-hall-ok = lista:
js-hall-fail = NO LISTA:
js-hall-again = Revisar de nuevo la mesa { $table }
js-hall-checking = Revisando todas las mesas…
js-hall-checking-one = Revisando la mesa { $table }…
js-hall-all-ok = Todas las partes están listas.
js-hall-failed = { $count } partes no están listas.
js-hall-table-done = Mesa { $table } revisada.
js-hall-error = No se pudo hacer la revisión: { $error }
js-second-blind-note = Para quien juega con { $side } solo en esta partida (partida { $game }, ronda { $round }): entrégueselo. Una partida nueva da un enlace nuevo, y este deja de valer.

## The arbiter's alerts (the table's `alerts[].key`, with its `args`)
js-alert-journal-failing = el registro falla: los cambios no se están guardando ({ $error })
js-alert-board-disconnected = tablero táctil desconectado
js-alert-board-disconnected-retrying = tablero táctil desconectado: fallaron { $failures } intentos de alcanzarlo; se vuelve a intentar
js-alert-board-differs = el tablero táctil difiere en { $squares }
js-alert-promotion-waiting = promoción a la espera de que se nombre la pieza
js-alert-flag-fell = caída de bandera: { $result }
js-alert-flag-unrecorded = se acabó el tiempo de { $side }: la bandera ha caído, aún sin registrar (el registro falla)
js-alert-flag-claimable = se acabó el tiempo de { $side }: la bandera ha caído en cuanto se reclame (6.8)
js-alert-illegal-attempts = { $count } intento(s) de jugada ilegal
js-alert-no-sound = sin sonido en la mesa { $table }: { $error }
js-alert-no-sound-failed = sin sonido en la mesa { $table }: la salida de sonido falló
js-alert-draw-offered = tablas ofrecidas por { $side }

## How a game ended (the result's `ending`); { $detail }: the move written with a claim
js-ending-checkmate = jaque mate
js-ending-stalemate = ahogado
js-ending-dead_position = posición muerta
js-ending-fivefold_repetition = quíntuple repetición
js-ending-seventy_five_moves = regla de las setenta y cinco jugadas
js-ending-agreement = acuerdo
js-ending-threefold_repetition = triple repetición
js-ending-fifty_moves = regla de las cincuenta jugadas
js-ending-resignation = abandono
js-ending-flag_fell = caída de bandera
js-ending-arbiter = decisión del árbitro
js-ending-detail = { $ending }, { $detail }
js-ending-second-illegal = segunda jugada ilegal completada por { $side } (7.5.5)
js-ending-claimed-written = reclamada con { $move } anotada, no jugada

## The kind of game (the table's `kind`)
js-kind-standard = estándar
js-kind-rapid = rápida
js-kind-blitz = relámpago

## Why a listed player has no game in a round set up (`unpaired[].key`)
js-unpaired-not-paired = sin emparejar en la ronda { $round }
js-unpaired-bye = descanso
js-unpaired-bye-letter = descanso ({ $letter })
js-unpaired-no-colour = emparejado sin color en la ronda { $round }: una partida que no se juega

# A championship: the player's own commands and seat (issue 33).
player-help-offer = ofrecer tablas
player-help-accept = aceptar las tablas ofrecidas
player-help-decline = rechazarlas
player-help-resign = abandonar la partida
player-help-standings = la clasificación
player-btn-offer = Ofrecer tablas
player-btn-accept = Aceptar tablas
player-btn-decline = Rechazar tablas
player-btn-standings = Clasificación
js-standings-you = Está en el puesto { $place } con { $points } puntos.
js-standings-leaders = En cabeza: { $list }.
js-no-standings = Aún no hay clasificación.
js-seat = Ronda { $round }, tablero { $board }: juega con { $side } contra { $name }.
js-no-seat = { $name }: { $why }.
role-own = Enlace propio
cards-player = { $name }, jugador { $rank }
